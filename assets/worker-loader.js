// Starts the simulator's Web Worker: wasm-bindgen's no-modules glue, then its module.
// Trunk builds both from the `tcplab-worker` binary (index.html); the page starts this file.
// The module's fetch starts before the glue's, so the two come in one round trip rather than
// one after the other (a phone opening a shared link waits a round trip less for its first
// run). Its failure is handled where the glue awaits it, not reported as unhandled meanwhile.
var fetched = fetch("./tcplab-worker_bg.wasm");
fetched.catch(function () {});
importScripts("./tcplab-worker.js");
wasm_bindgen({ module_or_path: fetched }).catch(function (e) {
    // Thrown from a task of its own, the failure reaches the page as the worker's error event,
    // which it reports; a rejected promise alone would leave the page waiting for ever.
    setTimeout(function () {
        throw new Error("its module could not be fetched or started (" + (e && e.message) +
            "): reload the page");
    });
});
