// The playground page's script: calls POST /body and POST /compose on the
// server that served the page and shows the answers as they are, drawn as a
// phone in the answer's language does: the chrome in the compose answer's
// `direction`, each line in its own (playground.css), with its `locale`'s
// date. GET /playground.json gives the server's app name and default
// catalog, for what the page draws before any answer. Everything is written
// with textContent, never as HTML. A bearer token, when the server asks for
// one, lives in the variable below only: never in storage, cookies or the
// address.
"use strict";

(() => {
  const DEBOUNCE_MS = 250;
  const DEFAULT_MAX_UNITS = 256;
  /** The lock screens' time, 9:41 as in Apple's and Google's own pictures. */
  const CLOCK = new Date(Date.UTC(2026, 10, 29, 9, 41));
  const JSON_NUMBER = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$/;

  let token = null;

  const element = (id) => document.getElementById(id);
  // Every card and problem box takes its parts from the page's one template of them.
  for (const b of document.querySelectorAll("[data-parts]")) b.append(element(b.dataset.parts).content.cloneNode(true));

  function debounce(action) {
    let timer = 0;
    return () => {
      clearTimeout(timer);
      timer = setTimeout(action, DEBOUNCE_MS);
    };
  }

  /** `text` parsed, when it is a JSON object; else null. */
  function jsonObject(text) {
    try {
      const value = JSON.parse(text);
      return value !== null && typeof value === "object" && !Array.isArray(value) ? value : null;
    } catch (_) {
      return null;
    }
  }

  // ---- HTTP

  /** One request to this server, with the token when there is one; {value} or {problem: {title, detail, code}}. */
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
    const json = await response.json().catch(() => null);
    const isObject = json !== null && typeof json === "object";
    if (response.status === 401) showTokenPanel(json);
    if (response.ok && isObject) return { value: json };
    if (isObject && typeof json.title === "string") return { problem: json };
    return {
      problem: {
        title: "HTTP " + response.status + (response.statusText ? " " + response.statusText : ""),
        detail: "the answer was not a problem document",
      },
    };
  }

  /** Shows a panel's result or, in its place, the problem; then the preview. */
  function showOutcome(name, problem) {
    const box = element(name + "-problem");
    element(name + "-result").hidden = problem !== null;
    box.hidden = problem === null;
    if (problem !== null) {
      box.querySelector(".problem-title").textContent = problem.title;
      box.querySelector(".problem-detail").textContent = typeof problem.detail === "string" ? problem.detail : "";
      box.querySelector(".problem-code").textContent = typeof problem.code === "string" ? problem.code : "";
    }
    updatePreview();
    // Counted (`data-answers`) so that a reader or a test can tell a new answer arrived.
    const panel = element(name + "-panel");
    panel.dataset.answers = String(Number(panel.dataset.answers || "0") + 1);
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
   * The direction of the catalog with this tag as the server has it, or null.
   * Only for the preview before any compose answer, whose own `direction` wins.
   */
  function catalogDirection(locale) {
    const catalog = settings && settings.catalogs.find((entry) => entry.locale === locale);
    return catalog ? catalog.direction : null;
  }

  // ---- Token

  function showTokenPanel(problem) {
    element("token-panel").hidden = false;
    if (token !== null && problem && problem.code === "unauthorized") {
      element("token-state").textContent = "The server refused this token: " + (problem.detail || "") + ".";
    }
  }

  /** Uses `value` as the token (null: none), says so, and asks both panels again with it. */
  function setToken(value, state) {
    token = value;
    element("forget-token").hidden = value === null;
    element("token-state").textContent = state;
    if (value !== null && settings === null) loadSettings();
    renderBody();
    renderCompose();
  }

  function useToken(event) {
    event.preventDefault();
    const field = element("token");
    const value = field.value.trim();
    field.value = "";
    if (value === "") return;
    setToken(value, "A token is in use. It is kept in this page's memory only and is gone when the page reloads.");
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
    if (raw === "" && !field.validity.badInput) return '{"text":' + text + "}";
    if (!JSON_NUMBER.test(raw)) {
      return { problem: { title: "maxUnits is not a number", detail: "enter an integer in 256…4096, or nothing" } };
    }
    return '{"text":' + text + ',"maxUnits":' + raw + "}";
  }

  async function renderBody() {
    const sequence = ++bodySequence;
    const request = bodyRequest();
    const cap = element("max-units").value.trim() || DEFAULT_MAX_UNITS;
    const answer = typeof request === "string" ? await call("/body", "POST", request) : request;
    if (sequence !== bodySequence) return;
    bodyFailed = !answer.value;
    if (answer.value) {
      lastBody = answer.value;
      element("body").textContent = lastBody.body;
      element("units").textContent = lastBody.units + " / " + cap;
      setFlag("truncated", lastBody.truncated);
      setFlag("input-cut", lastBody.inputCut);
    }
    showOutcome("body", bodyFailed ? answer.problem : null);
  }

  function setFlag(id, on) {
    const field = element(id);
    field.textContent = on ? "yes" : "no";
    field.classList.toggle("on", on === true);
  }

  // ---- Compose panel

  let composeSequence = 0;
  let lastCompose = null;
  let composeFailed = false;

  /** The compose request as typed, when it is a JSON object; else null. */
  const typedRequest = () => jsonObject(element("compose-request").value);

  /**
   * The request as typed; with a locale chosen, the same text with `locale`
   * set. A request that is not a JSON object goes as typed: the server's
   * answer names what is wrong with it.
   */
  function composeRequest() {
    const raw = element("compose-request").value;
    const locale = element("locale").value;
    const parsed = locale === "" ? null : jsonObject(raw);
    if (parsed === null) return raw;
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
    const answer = await call("/compose", "POST", composeRequest());
    if (sequence !== composeSequence) return;
    composeFailed = !(answer.value && answer.value.notification);
    if (!composeFailed) {
      showCompose(answer.value);
      lastCompose = answer.value;
    }
    const unexpected = { title: "Unexpected answer", detail: "no notification in it" };
    showOutcome("compose", composeFailed ? answer.problem || unexpected : null);
  }

  function showCompose(value) {
    const direction = answerDirection(value) || "auto";
    for (const line of ["title", "subtitle", "body"]) {
      setText("notification-" + line, value.notification[line]);
      element("notification-" + line).dir = direction;
    }
    setText("kind", value.kind);
    setText("reason", value.reason);
    const hasLocale = Object.prototype.hasOwnProperty.call(value, "locale");
    element("response-locale-row").hidden = !hasLocale;
    setText("response-locale", hasLocale ? value.locale : null);
    element("shown").textContent = listText(value.shown);
    element("dropped").textContent = listText(value.dropped, (entry) => entry.key + " (" + entry.reason + ")");
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
    element("push-send").textContent = "send: " + push.send + " · withdraw: " + listText(push.withdraw);
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
  function setText(id, value) {
    const field = element(id);
    const isString = typeof value === "string";
    field.textContent = isString ? value : "null";
    field.classList.toggle("null", !isString);
  }

  /** A list's entries joined with ", ", or "none" when it is empty or no list. */
  function listText(list, entryText = (entry) => entry) {
    return Array.isArray(list) && list.length > 0 ? list.map(entryText).join(", ") : "none";
  }

  // ---- Lock-screen preview

  /**
   * A compose answer's `direction`, its catalog's (docs/spec/compose.md, section 6.5); else null.
   * A card's chrome takes it, as a phone set to that language lays out its notifications; each line
   * then takes its own from its first strong character outside isolates (playground.css): in an Arabic
   * notification, "U+2068 Cleo U+2069 و..." is right to left and "U+2068 Cleo U+2069: Ship it" left to right.
   */
  function answerDirection(answer) {
    return answer && (answer.direction === "rtl" || answer.direction === "ltr") ? answer.direction : null;
  }

  /** The phone's language: the last compose answer's catalog, else the server's default one. */
  function phoneLocale() {
    if (lastCompose && typeof lastCompose.locale === "string") return lastCompose.locale;
    return settings ? settings.defaultLocale : "en";
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
    const push = !fromBody && lastCompose ? lastCompose.push : null;
    const sender = push && push.sender;
    const person = sender && (sender.name || sender.id);
    const groupName = push && push.conversation && push.conversation.group ? push.conversation.title : null;
    const locale = phoneLocale();
    // The phone's language sets the direction of the screen, of each card's chrome and, on iOS, of the
    // lines' alignment: the last compose answer's `direction` (the Body alone has no language of its
    // own); before any answer, the server's default catalog's.
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
      // The whole screen mirrors (the expanded views' status line too); the
      // figure's English caption keeps its own direction.
      phone.querySelector(".screen").dir = direction;
      for (const clock of phone.querySelectorAll(".clock")) clock.textContent = clockText(locale);
      for (const day of phone.querySelectorAll(".date")) day.textContent = dates[platform];
      const card = phone.querySelector(".card");
      card.dir = direction;
      card.querySelector(".app-name").textContent = platform === "ios" ? app.toLocaleUpperCase(locale) : app;
      card.querySelector(".app-icon").textContent = Array.from(app)[0] || "";
      // A communication notification (push.md P24): the sender's picture, here their initial, and
      // the group conversation's name above the message, as iOS and Android lay one out.
      const avatar = card.querySelector(".avatar");
      avatar.textContent = person ? Array.from(person)[0].toLocaleUpperCase(locale) : "";
      avatar.hidden = !person;
      fillLine(card.querySelector(".card-conversation"), shown && groupName !== shown.title ? groupName : null, true);
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
    const text = oneLine ? body.replace(/\n/g, " ") : body;
    if (!capped || !text.endsWith("…")) {
      field.replaceChildren(text);
      return;
    }
    const mark = document.createElement("mark");
    mark.className = "cap";
    mark.title = "maxUnits reached: the body ends here";
    mark.textContent = "…";
    field.replaceChildren(text.slice(0, -1), mark);
  }

  // ---- Wiring

  /** An edit in a panel previews that panel's answer and asks for a new one. */
  function onEdit(id, type, previewID, render) {
    element(id).addEventListener(type, () => {
      element(previewID).checked = true;
      updatePreview();
      render();
    });
  }

  const renderBodySoon = debounce(renderBody);
  const renderComposeSoon = debounce(renderCompose);
  onEdit("text", "input", "preview-body", renderBodySoon);
  onEdit("max-units", "input", "preview-body", renderBodySoon);
  onEdit("compose-request", "input", "preview-compose", renderComposeSoon);
  onEdit("locale", "change", "preview-compose", renderCompose);
  onEdit("compose-button", "click", "preview-compose", renderCompose);
  for (const radio of document.querySelectorAll('input[name="preview-source"]')) {
    radio.addEventListener("change", updatePreview);
  }
  element("token-form").addEventListener("submit", useToken);
  element("forget-token").addEventListener("click", () => setToken(null, "No token is in use."));

  updatePreview();
  loadSettings();
  renderBody();
  renderCompose();
})();
