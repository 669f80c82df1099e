// Starts the simulator's Web Worker: wasm-bindgen's no-modules glue, then its module.
// Trunk builds both from the `tcplab-worker` binary (index.html); the page starts this file.
importScripts("./tcplab-worker.js");
wasm_bindgen({ module_or_path: "./tcplab-worker_bg.wasm" });
