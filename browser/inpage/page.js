// page.js — the entry module of the serializer installed as
// window.__cdpSkillPage in the page's own world, for agent JavaScript
// (pageFunction, poll; function.go): what it exports is its surface.

export { serialize, serializeTyped, handoverTake, ping } from './serialize.js';
