// The playground page's script: calls POST /body and POST /compose on the
// server that served the page and shows the answers as they are, drawn as a
// phone in the answer's language does: the chrome in the compose answer's
// `direction`, each line in its own (playground.css), with its `locale`'s date. GET /playground.json gives the server's app name
// and default catalog, for what the page draws before any answer. Everything
// is written with textContent, never as HTML. A bearer token, when the server
// asks for one, lives in the variable below only: never in storage, cookies
// or the address.
"use strict";

(() => {
  const DEBOUNCE_MS = 250;
  const DEFAULT_MAX_UNITS = 256;
  /** The lock screens' time, 9:41 as in Apple's and Google's own pictures. */
  const CLOCK = new Date(Date.UTC(2026, 10, 29, 9, 41));
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
  function post(path, bodyText) {
    return call(path, "POST", bodyText);
  }

  /** One request to this server, with the token when there is one; {value} or {problem}. */
  async function call(path, method, bodyText) {
    const headers = method === "POST" ? { "Content-Type": "application/json" } : {};
    if (token !== null) headers.Authorization = "Bearer " + token;
    let response;
    try {
      response = await fetch(path, {
        method, headers, body: bodyText,
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

  // ---- The server's settings (GET /playground.json)

  /** {appName, defaultLocale, catalogs: [{locale, direction}]}, or null until the server gave them. */
  let settings = null;

  async function loadSettings() {
    const answer = await call("/playground.json", "GET");
    if (answer.value && Array.isArray(answer.value.catalogs)) {
      settings = answer.value;
      updatePreview();
    }
  }

  /**
   * The direction of the catalog with this tag, as the server has it; null
   * when unknown. Only for the Body preview before any compose answer: an
   * answer's own `direction` is the one a card takes.
   */
  function catalogDirection(locale) {
    const catalogs = settings ? settings.catalogs : [];
    const catalog = catalogs.find((entry) => entry.locale === locale);
    return catalog ? catalog.direction : null;
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
    if (settings === null) loadSettings();
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
    for (const id of ["notification-title", "notification-subtitle", "notification-body"]) {
      element(id).dir = answerDirection(value) || "auto";
    }
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
    showPush(value.push);
  }

  /** The transports' payloads, where the answer keeps each, and their limits in bytes (push.md P13). */
  const PAYLOADS = [
    ["apns", (push) => push.apns && push.apns.payload, 4096],
    ["fcm", (push) => push.fcm && push.fcm.message, 4096],
    ["webpush", (push) => push.webpush && push.webpush.payload, 3993],
  ];

  /**
   * The answer's `push`: each payload as sent and its size. JSON.stringify
   * writes what the service writes (push.md P20), so the size shown is the
   * bytes the relay sends; the limit is the transport's less the typed
   * request's `reserveBytes`.
   */
  function showPush(push) {
    const box = element("push-payloads");
    if (!push || typeof push !== "object") {
      box.hidden = true;
      return;
    }
    const request = typedRequest();
    const reserve =
      request && request.push && Number.isInteger(request.push.reserveBytes) ? request.push.reserveBytes : 0;
    const withdraw = Array.isArray(push.withdraw) && push.withdraw.length > 0 ? push.withdraw.join(", ") : "none";
    element("push-send").textContent = "send: " + push.send + " · withdraw: " + withdraw;
    const encoder = new TextEncoder();
    for (const [name, payloadOf, limit] of PAYLOADS) {
      const figure = element("payload-" + name);
      const payload = payloadOf(push);
      const bytes = payload === undefined ? 0 : encoder.encode(JSON.stringify(payload)).length;
      figure.querySelector(".size").textContent = bytes + " / " + (limit - reserve) + " bytes";
      const cut = push.cut && Array.isArray(push.cut[name]) ? push.cut[name] : [];
      figure.querySelector(".cut").textContent = cut.length > 0 ? "· cut: " + cut.join(", ") : "· nothing cut";
      figure.querySelector("pre").textContent = JSON.stringify(payload, null, 2);
    }
    box.hidden = false;
  }

  /** A string as it is; null (or anything absent) as a muted `null`. */
  function setText(field, value) {
    const isString = typeof value === "string";
    field.textContent = isString ? value : "null";
    field.classList.toggle("null", !isString);
  }

  // ---- Lock-screen preview

  /**
   * The direction of the language a compose answer is in: its `direction`
   * member, the chosen catalog's (docs/spec/compose.md, section 6.5); null
   * without an answer. A card's chrome takes it, as a phone set to that
   * language lays out its notifications; each line of the title, subtitle
   * and body then takes its own from its first strong character outside
   * isolates (playground.css), so a line that starts with an isolated Latin
   * name (U+2068 Cleo U+2069 و...) is right to left, and "U+2068 Cleo U+2069:
   * Ship it" left to right, in an Arabic notification.
   */
  function answerDirection(answer) {
    if (!answer) return null;
    return answer.direction === "rtl" || answer.direction === "ltr" ? answer.direction : null;
  }

  /** The phone's language: the last compose answer's catalog, else the server's default one. */
  function phoneLocale() {
    if (lastCompose && typeof lastCompose.locale === "string") return lastCompose.locale;
    return settings ? settings.defaultLocale : "en";
  }

  /** The compose request as typed, when it is a JSON object; else null. */
  function typedRequest() {
    try {
      const request = JSON.parse(element("compose-request").value);
      return request !== null && typeof request === "object" && !Array.isArray(request) ? request : null;
    } catch (_) {
      return null;
    }
  }

  /** The request's `app` when it names one, else the server's (`serve --app-name`); "" until it is known. */
  function appName(request) {
    if (request && typeof request.app === "string" && request.app !== "") return request.app;
    return settings && typeof settings.appName === "string" ? settings.appName : "";
  }

  /** The request's `now` (the lock screens' date), else today. */
  function lockDate(request) {
    const now = request && typeof request.now === "string" ? Date.parse(request.now) : NaN;
    return Number.isNaN(now) ? new Date() : new Date(now);
  }

  /** Intl's formatter for `locale`, or for English when the browser cannot format that one. */
  function format(locale, options) {
    try {
      return new Intl.DateTimeFormat(locale, { timeZone: "UTC", ...options });
    } catch (_) {
      return new Intl.DateTimeFormat("en", { timeZone: "UTC", ...options });
    }
  }

  /** 9:41 in the locale's digits and separator, without a day period (the lock screens show none). */
  function clockText(locale) {
    const parts = format(locale, { hour: "numeric", minute: "2-digit" }).formatToParts(CLOCK);
    const hour = parts.findIndex((part) => part.type === "hour");
    const minute = parts.findIndex((part) => part.type === "minute");
    if (hour < 0 || minute < 0) return "9:41";
    return parts.slice(Math.min(hour, minute), Math.max(hour, minute) + 1).map((part) => part.value).join("");
  }

  /** "now" in the locale, as the cards' time. */
  function nowText(locale) {
    try {
      return new Intl.RelativeTimeFormat(locale, { numeric: "auto" }).format(0, "second");
    } catch (_) {
      return "now";
    }
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
    const locale = phoneLocale();
    // The phone's language sets the direction of the screen and of each card's
    // chrome and, on iOS, the lines' alignment: the last compose answer's
    // `direction` (the Body alone has no language of its own); before any
    // answer, the server's default catalog's.
    const direction = answerDirection(lastCompose) || catalogDirection(locale) || "ltr";
    const request = typedRequest();
    const app = appName(request);
    const date = lockDate(request);
    const dates = {
      ios: format(locale, { weekday: "long", day: "numeric", month: "long" }).format(date),
      android: format(locale, { weekday: "short", day: "numeric", month: "short" }).format(date),
    };
    for (const phone of document.querySelectorAll(".phone")) {
      const platform = phone.classList.contains("ios") ? "ios" : "android";
      phone.lang = locale;
      // The whole screen, as the phone's language lays it out (the expanded
      // views' status line mirrors); the figure's English caption keeps its own.
      phone.querySelector(".screen").dir = direction;
      for (const clock of phone.querySelectorAll(".clock")) clock.textContent = clockText(locale);
      for (const day of phone.querySelectorAll(".date")) day.textContent = dates[platform];
      const card = phone.querySelector(".card");
      card.dir = direction;
      card.querySelector(".app-name").textContent = platform === "ios" ? app.toLocaleUpperCase(locale) : app;
      card.querySelector(".app-icon").textContent = Array.from(app)[0] || "";
      card.querySelector(".when").textContent = nowText(locale);
      // Android's collapsed lines are single lines: a line break shows as a space.
      const oneLine = platform === "android" && card.classList.contains("collapsed");
      fillLine(card.querySelector(".card-title"), shown && shown.title, oneLine);
      fillLine(card.querySelector(".card-subtitle"), shown && shown.subtitle, oneLine);
      fillBody(card.querySelector(".card-body"), shown ? shown.body : "", shown !== null && shown.capped, oneLine);
    }
  }

  function fillLine(field, value, oneLine) {
    const text = typeof value === "string" ? value : "";
    field.textContent = oneLine ? text.replace(/\n/g, " ") : text;
    field.hidden = text === "";
  }

  /** The body's text; when it was capped, its final "…" marked as where the cap fell. */
  function fillBody(field, body, capped, oneLine) {
    field.replaceChildren();
    const text = oneLine ? body.replace(/\n/g, " ") : body;
    if (capped && text.endsWith("…")) {
      field.append(text.slice(0, -1));
      const mark = document.createElement("mark");
      mark.className = "cap";
      mark.title = "maxUnits reached: the body ends here";
      mark.textContent = "…";
      field.append(mark);
    } else {
      field.append(text);
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

  updatePreview();
  loadSettings();
  renderBody();
  renderCompose();
})();
