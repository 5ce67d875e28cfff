// Starts the advisor. From a web server advisor.js is imported as the ES module
// it is. Opened from disk (file://) the browser refuses to load modules from
// files, so the two modules come from sources.js as text and are imported from
// blob: URLs; advisor.js's one import of "./policy.mjs" is pointed at its blob.
(function () {
  "use strict";
  function fail(e) {
    var box = document.getElementById("error");
    box.textContent = "The advisor could not start: " + (e && e.message ? e.message : e);
    box.hidden = false;
    document.getElementById("status").textContent = "";
  }
  function blobUrl(text) {
    return URL.createObjectURL(new Blob([text], { type: "text/javascript" }));
  }
  try {
    if (location.protocol === "file:") {
      var files = globalThis.ADVISOR_FILES || {};
      if (!files["policy.mjs"] || !files["advisor.js"]) {
        throw new Error("sources.js is missing or damaged; build the page again with tutto-sim advisor");
      }
      var reader = blobUrl(files["policy.mjs"]);
      var app = files["advisor.js"].replace('from "./policy.mjs"', "from " + JSON.stringify(reader));
      import(blobUrl(app)).catch(fail);
    } else {
      import(new URL("advisor.js", document.baseURI).href).catch(fail);
    }
  } catch (e) {
    fail(e);
  }
})();
