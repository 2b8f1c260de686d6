// The playground page's script: calls POST /body and POST /compose on the
// server that served the page and shows the answers as they are. Everything
// is written with textContent, never as HTML. A bearer token, when the server
// asks for one, lives in the variable below only: never in storage, cookies
// or the address.
"use strict";

(() => {
  const DEBOUNCE_MS = 250;
  const DEFAULT_MAX_UNITS = 256;
  const DEFAULT_APP = "Buzz";
  const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

  let token = null;

  const element = (id) => document.getElementById(id);

  /** Counts the answers a panel has shown (`data-answers`), so a reader or a test can tell a new one arrived. */
  function countAnswer(panelID) {
    const panel = element(panelID);
    panel.dataset.answers = String(Number(panel.dataset.answers || "0") + 1);
  }

  function debounce(action) {
    let timer = 0;
    return () => {
      clearTimeout(timer);
      timer = setTimeout(action, DEBOUNCE_MS);
    };
  }

  // ---- HTTP

  /** POSTs `bodyText` as JSON; resolves to {value} or {problem: {title, detail, code}}. */
  async function post(path, bodyText) {
    const headers = { "Content-Type": "application/json" };
    if (token !== null) headers.Authorization = "Bearer " + token;
    let response;
    try {
      response = await fetch(path, {
        method: "POST", headers, body: bodyText,
        cache: "no-store", credentials: "omit", redirect: "error",
      });
    } catch (error) {
      return { problem: { title: "No answer from the server", detail: String(error && error.message || error) } };
    }
    let json = null;
    try {
      json = await response.json();
    } catch (_) {
      json = null;
    }
    if (response.status === 401) showTokenPanel(json);
    if (response.ok && json !== null && typeof json === "object") return { value: json };
    if (json !== null && typeof json === "object" && typeof json.title === "string") return { problem: json };
    return {
      problem: {
        title: "HTTP " + response.status + (response.statusText ? " " + response.statusText : ""),
        detail: "the answer was not a problem document",
      },
    };
  }

  function showProblem(box, problem) {
    box.querySelector(".problem-title").textContent = problem.title;
    box.querySelector(".problem-detail").textContent = typeof problem.detail === "string" ? problem.detail : "";
    box.querySelector(".problem-code").textContent = typeof problem.code === "string" ? problem.code : "";
    box.hidden = false;
  }

  // ---- Token

  function showTokenPanel(problem) {
    element("token-panel").hidden = false;
    const state = element("token-state");
    if (token !== null && problem && problem.code === "unauthorized") {
      state.textContent = "The server refused this token: " + (problem.detail || "") + ".";
    }
  }

  function useToken(event) {
    event.preventDefault();
    const field = element("token");
    const value = field.value.trim();
    field.value = "";
    if (value === "") return;
    token = value;
    element("forget-token").hidden = false;
    element("token-state").textContent =
      "A token is in use. It is kept in this page's memory only and is gone when the page reloads.";
    renderBody();
    renderCompose();
  }

  function forgetToken() {
    token = null;
    element("forget-token").hidden = true;
    element("token-state").textContent = "No token is in use.";
    renderBody();
    renderCompose();
  }

  // ---- Body panel

  let bodySequence = 0;
  let lastBody = null;
  let bodyFailed = false;

  /** The exact request text, or {problem} when the maxUnits field holds no number. */
  function bodyRequest() {
    const text = JSON.stringify(element("text").value);
    const field = element("max-units");
    const raw = field.value.trim();
    if (raw === "") {
      if (field.validity.badInput) {
        return { problem: { title: "maxUnits is not a number", detail: "enter an integer in 256…4096, or nothing" } };
      }
      return '{"text":' + text + "}";
    }
    if (!JSON_NUMBER.test(raw)) {
      return { problem: { title: "maxUnits is not a number", detail: "enter an integer in 256…4096, or nothing" } };
    }
    return '{"text":' + text + ',"maxUnits":' + raw + "}";
  }

  function currentCap() {
    const raw = element("max-units").value.trim();
    return raw === "" ? DEFAULT_MAX_UNITS : raw;
  }

  async function renderBody() {
    const sequence = ++bodySequence;
    const request = bodyRequest();
    const cap = currentCap();
    const answer = typeof request === "string" ? await post("/body", request) : request;
    if (sequence !== bodySequence) return;
    const result = element("body-result");
    const problemBox = element("body-problem");
    if (answer.value) {
      const value = answer.value;
      element("body").textContent = value.body;
      element("units").textContent = value.units + " / " + cap;
      setFlag(element("truncated"), value.truncated);
      setFlag(element("input-cut"), value.inputCut);
      lastBody = value;
      bodyFailed = false;
      problemBox.hidden = true;
      result.hidden = false;
    } else {
      bodyFailed = true;
      result.hidden = true;
      showProblem(problemBox, answer.problem);
    }
    updatePreview();
    countAnswer("body-panel");
  }

  function setFlag(field, on) {
    field.textContent = on ? "yes" : "no";
    field.classList.toggle("on", on === true);
  }

  // ---- Compose panel

  let composeSequence = 0;
  let lastCompose = null;
  let composeFailed = false;

  /**
   * The request as typed; with a locale chosen, the same text with `locale`
   * set. A request that is not a JSON object goes as typed: the server's
   * answer names what is wrong with it.
   */
  function composeRequest() {
    const raw = element("compose-request").value;
    const locale = element("locale").value;
    if (locale === "") return raw;
    let parsed;
    try {
      parsed = JSON.parse(raw);
    } catch (_) {
      return raw;
    }
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return raw;
    if (Object.prototype.hasOwnProperty.call(parsed, "locale")) {
      parsed.locale = locale;
      return JSON.stringify(parsed, null, 2);
    }
    // Inserted as text, so the rest of the request keeps its exact bytes.
    const member = '"locale": ' + JSON.stringify(locale) + (Object.keys(parsed).length > 0 ? ", " : "");
    return raw.replace(/^\s*\{/, (opening) => opening + member);
  }

  async function renderCompose() {
    const sequence = ++composeSequence;
    const answer = await post("/compose", composeRequest());
    if (sequence !== composeSequence) return;
    const result = element("compose-result");
    const problemBox = element("compose-problem");
    if (answer.value && answer.value.notification) {
      showCompose(answer.value);
      lastCompose = answer.value;
      composeFailed = false;
      problemBox.hidden = true;
      result.hidden = false;
    } else {
      composeFailed = true;
      result.hidden = true;
      showProblem(problemBox, answer.problem || { title: "Unexpected answer", detail: "no notification in it" });
    }
    updatePreview();
    countAnswer("compose-panel");
  }

  function showCompose(value) {
    const notification = value.notification;
    setText(element("notification-title"), notification.title);
    setText(element("notification-subtitle"), notification.subtitle);
    setText(element("notification-body"), notification.body);
    setText(element("kind"), value.kind);
    setText(element("reason"), value.reason);
    const hasLocale = Object.prototype.hasOwnProperty.call(value, "locale");
    element("response-locale-row").hidden = !hasLocale;
    setText(element("response-locale"), hasLocale ? value.locale : null);
    const shown = Array.isArray(value.shown) ? value.shown : [];
    element("shown").textContent = shown.length > 0 ? shown.join(", ") : "none";
    const dropped = Array.isArray(value.dropped) ? value.dropped : [];
    element("dropped").textContent =
      dropped.length > 0 ? dropped.map((entry) => entry.key + " (" + entry.reason + ")").join(", ") : "none";
  }

  /** A string as it is; null (or anything absent) as a muted `null`. */
  function setText(field, value) {
    const isString = typeof value === "string";
    field.textContent = isString ? value : "null";
    field.classList.toggle("null", !isString);
  }

  // ---- Lock-screen preview

  function appName() {
    try {
      const request = JSON.parse(element("compose-request").value);
      if (request && typeof request.app === "string" && request.app !== "") return request.app;
    } catch (_) {
      // Not JSON yet: the default name.
    }
    return DEFAULT_APP;
  }

  function updatePreview() {
    const fromBody = element("preview-body").checked;
    const note = element("preview-note");
    let shown = null;
    if (fromBody) {
      shown = lastBody && { title: null, subtitle: null, body: lastBody.body, capped: lastBody.truncated === true };
      note.textContent = bodyFailed
        ? "The latest /body request failed (see the Body panel); this is the last answer."
        : "The body alone, as a notification without title or subtitle.";
    } else {
      const notification = lastCompose && lastCompose.notification;
      shown = notification && {
        title: notification.title, subtitle: notification.subtitle, body: notification.body, capped: false,
      };
      note.textContent = composeFailed
        ? "The latest /compose request failed (see the Compose panel); this is the last answer."
        : "The Compose result: title, subtitle and body as the phone shows them.";
    }
    const app = appName();
    for (const card of [element("ios-card"), element("android-card")]) {
      card.querySelector(".app-name").textContent = card.id === "ios-card" ? app.toUpperCase() : app;
      card.querySelector(".app-icon").textContent = Array.from(app)[0] || "";
      fillLine(card.querySelector(".card-title"), shown && shown.title);
      fillLine(card.querySelector(".card-subtitle"), shown && shown.subtitle);
      fillBody(card.querySelector(".card-body"), shown ? shown.body : "", shown !== null && shown.capped);
    }
  }

  function fillLine(field, value) {
    field.textContent = typeof value === "string" ? value : "";
    field.hidden = typeof value !== "string" || value === "";
    field.dir = "auto";
  }

  /** The body's text; when it was capped, its final "…" marked as where the cap fell. */
  function fillBody(field, body, capped) {
    field.replaceChildren();
    field.dir = "auto";
    if (capped && body.endsWith("…")) {
      field.append(body.slice(0, -1));
      const mark = document.createElement("mark");
      mark.className = "cap";
      mark.title = "maxUnits reached: the body ends here";
      mark.textContent = "…";
      field.append(mark);
    } else {
      field.append(body);
    }
  }

  // ---- Wiring

  function choosePreview(id) {
    element(id).checked = true;
    updatePreview();
  }

  const renderBodySoon = debounce(renderBody);
  const renderComposeSoon = debounce(renderCompose);
  element("text").addEventListener("input", () => {
    choosePreview("preview-body");
    renderBodySoon();
  });
  element("max-units").addEventListener("input", () => {
    choosePreview("preview-body");
    renderBodySoon();
  });
  element("compose-request").addEventListener("input", () => {
    choosePreview("preview-compose");
    renderComposeSoon();
  });
  element("locale").addEventListener("change", () => {
    choosePreview("preview-compose");
    renderCompose();
  });
  element("compose-button").addEventListener("click", () => {
    choosePreview("preview-compose");
    renderCompose();
  });
  for (const radio of document.querySelectorAll('input[name="preview-source"]')) {
    radio.addEventListener("change", updatePreview);
  }
  element("token-form").addEventListener("submit", useToken);
  element("forget-token").addEventListener("click", forgetToken);

  renderBody();
  renderCompose();
})();
