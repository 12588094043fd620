// page.js — the entry module of the serializer agent JavaScript's values
// go through in the page's own world (pageFunction, poll; function.go).
// It keeps no global there: its bundle is a function literal that each
// call which needs it includes (pagechannel.go), so what it exports is the
// surface of one call.

export { serialize, serializeTyped } from './serialize.js';
