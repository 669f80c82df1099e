// Starts one of the lab's Web Workers: wasm-bindgen's no-modules glue, then its module, both of
// what Trunk builds from a binary (index.html). `?module=tcplab-capture` starts the capture
// analysis's; without it, the simulator's (`tcplab-worker`).
//
// The module's fetch starts before the glue's, so the two come in one round trip rather than
// one after the other (a phone opening a shared link waits a round trip less for its first
// run). Its failure is handled where the glue awaits it, not reported as unhandled meanwhile.
var name = new URL(self.location.href).searchParams.get("module") === "tcplab-capture"
    ? "tcplab-capture"
    : "tcplab-worker";
var fetched = fetch("./" + name + "_bg.wasm");
fetched.catch(function () {});
importScripts("./" + name + ".js");
wasm_bindgen({ module_or_path: fetched }).catch(function (e) {
    // Thrown from a task of its own, the failure reaches the page as the worker's error event,
    // which it reports; a rejected promise alone would leave the page waiting for ever.
    setTimeout(function () {
        throw new Error("its module could not be fetched or started (" + (e && e.message) +
            "): reload the page");
    });
});
