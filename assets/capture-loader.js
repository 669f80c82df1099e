// Starts the capture analysis's Web Worker: wasm-bindgen's no-modules glue, then its module.
// Trunk builds both from the `tcplab-capture` binary (index.html); the diagnosis starts this file
// when it is given a capture. The module's fetch starts before the glue's, as the simulator's
// worker's does (worker-loader.js).
var fetched = fetch("./tcplab-capture_bg.wasm");
fetched.catch(function () {});
importScripts("./tcplab-capture.js");
wasm_bindgen({ module_or_path: fetched }).catch(function (e) {
    // Thrown from a task of its own, the failure reaches the page as the worker's error event,
    // which it reports; a rejected promise alone would leave the page waiting for ever.
    setTimeout(function () {
        throw new Error("its module could not be fetched or started (" + (e && e.message) +
            "): reload the page");
    });
});
