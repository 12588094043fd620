// The CodeMirror 6 build the codemirror page loads: CodeMirror ships ES
// modules only, so the test bundles this entry with esbuild into an IIFE.
import { EditorView, basicSetup } from "codemirror";
import { javascript } from "@codemirror/lang-javascript";

window.CM = { EditorView, basicSetup, javascript };
