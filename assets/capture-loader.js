// Starts the capture analysis's Web Worker: wasm-bindgen's no-modules glue, then its module.
// Trunk builds both from the `tcplab-capture` binary (index.html); the diagnosis starts this file
// when it is given a capture.
importScripts("./tcplab-capture.js");
wasm_bindgen({ module_or_path: "./tcplab-capture_bg.wasm" });
