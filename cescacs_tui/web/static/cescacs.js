// The page's side of cescacs-web: where the terminal connects, its font size, focus, and files from this computer.
// It runs at the end of the body, after textual.js has set window.onload, and wraps that start-up.
"use strict";

(function () {
  const PORTRAIT = { columns: 52, rows: 44 }; // the compact board (49 x 17) above the panels
  const LANDSCAPE = { columns: 80, rows: 24 }; // the compact board beside the panels
  const CELL_WIDTH = 0.6; // Roboto Mono's advance, in ems
  const CELL_HEIGHT = 1.2;
  const MAX_UPLOAD_BYTES = 1024 * 1024;
  const FIRST_FRAME_BYTES = 64;
  const WORDS = document.body.dataset; // the page's words, in the visitor's language (the server's templates)
  const CLOSE_REASONS = {
    1001: WORDS.serverStopped,
    4001: WORDS.otherTab,
    4003: WORDS.serverFull,
    4004: WORDS.idle,
  };

  const terminal = document.getElementById("terminal");
  const fileInput = document.getElementById("record-file");
  const chooseButton = document.getElementById("choose-record");
  let socket = null;

  // The websocket of the page's own address: right behind a proxy and for every loopback name.
  function websocketUrl() {
    const url = new URL("ws", window.location.href);
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    url.search = "";
    return url.href;
  }

  // The largest font (at most 16 px) that fits the layout the window's shape asks for.
  function fontSize() {
    const asked = parseInt(new URLSearchParams(window.location.search).get("fontsize"), 10);
    if (asked > 0) return asked;
    const width = window.innerWidth;
    const height = window.innerHeight;
    const want = width < height ? PORTRAIT : LANDSCAPE;
    const fits = Math.min(width / (want.columns * CELL_WIDTH), height / (want.rows * CELL_HEIGHT));
    return Math.max(7, Math.min(16, Math.floor(fits)));
  }

  // A sentence of the page's words about a file: {name} and {size} filled in.
  function said(words, name) {
    return words.replace("{size}", String(MAX_UPLOAD_BYTES / 1024)).replace("{name}", () => name); // no $& patterns
  }

  function notice(text) {
    const box = document.getElementById("notice");
    box.textContent = text;
    box.hidden = false;
    window.setTimeout(() => {
      box.hidden = true;
    }, 6000);
  }

  // The browser shows its file chooser only for a page the player just used (a key, a click); if the app's
  // request came too late for that, the page asks for a click of its own.
  function chooseFile() {
    const activation = navigator.userActivation;
    if (activation === undefined || activation.isActive) {
      fileInput.click();
    } else {
      chooseButton.hidden = false;
      chooseButton.focus();
    }
  }

  function terminalHasFocus() {
    return document.activeElement !== null && terminal.contains(document.activeElement);
  }

  function focusTerminal() {
    const input = terminal.querySelector("textarea");
    if (input) input.focus();
  }

  // textual.js creates its websocket itself: this subclass keeps it at hand, tells why a session ended, and
  // holds back what the page says too early.  Textual's web driver starts the app as "not focused" until the
  // page says "focus"; said while the socket still connects, that message would be lost (the send throws), so
  // the app would stay blurred: its footer empty and the first keys misrouted.  Messages wait for the socket
  // to open; keys and focus changes wait for the app's first frame (the driver's "not focused" comes before it),
  // and then the page says where the focus really is.
  const NativeWebSocket = window.WebSocket;
  class GameSocket extends NativeWebSocket {
    constructor(url, protocols) {
      super(url, protocols);
      socket = this;
      this.waiting = []; // until the socket is open
      this.keys = []; // until the app has drawn
      this.addEventListener("open", () => {
        const waiting = this.waiting;
        this.waiting = null;
        for (const data of waiting) this.send(data);
        focusTerminal();
      });
      this.addEventListener("message", (event) => {
        if (typeof event.data !== "string") {
          // The driver's mode switches are a few bytes each; a frame of the screen is far longer.
          if (this.keys !== null && event.data.byteLength > FIRST_FRAME_BYTES) {
            const keys = this.keys;
            this.keys = null;
            super.send(JSON.stringify([terminalHasFocus() ? "focus" : "blur"]));
            for (const data of keys) super.send(data);
          }
          return;
        }
        const message = JSON.parse(event.data);
        if (message[0] === "cescacs" && message[1] === "choose_file") chooseFile();
      });
      this.addEventListener("close", (event) => {
        document.getElementById("closed-message").textContent = CLOSE_REASONS[event.code] || WORDS.sessionEnded;
      });
    }

    send(data) {
      if (this.waiting !== null) this.waiting.push(data);
      else if (this.keys !== null && data.startsWith('["stdin"')) this.keys.push(data);
      else if (this.keys !== null && (data === '["focus"]' || data === '["blur"]')) return;
      else super.send(data);
    }
  }
  window.WebSocket = GameSocket;

  // A record from this computer goes to the app as a paste, into the box its Open dialog shows.
  async function upload(file) {
    if (file.size > MAX_UPLOAD_BYTES) {
      notice(said(WORDS.tooLarge, file.name));
      return;
    }
    let text;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
    } catch (error) {
      notice(said(WORDS.notUtf8, file.name));
      return;
    }
    if (text.includes("\0")) {
      notice(said(WORDS.notText, file.name));
      return;
    }
    // No control character but tab and newlines reaches the terminal: ESC would end the paste early.
    const clean = text.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "\ufffd");
    if (socket && socket.readyState === NativeWebSocket.OPEN) {
      socket.send(JSON.stringify(["stdin", "\x1b[200~" + clean + "\x1b[201~"]));
    }
    focusTerminal();
  }

  chooseButton.addEventListener("click", () => {
    chooseButton.hidden = true;
    fileInput.click();
  });

  fileInput.addEventListener("change", () => {
    const file = fileInput.files[0];
    fileInput.value = "";
    if (file) upload(file);
  });

  for (const button of document.querySelectorAll(".cescacs-reload")) {
    button.addEventListener("click", () => {
      const url = new URL(window.location.href);
      url.searchParams.delete("delay");
      window.location.href = url.href;
    });
  }

  terminal.dataset.sessionWebsocketUrl = websocketUrl();
  terminal.dataset.fontSize = String(fontSize());

  // Start the terminal once its font is here (its cells are measured with it), then give it the keyboard.
  const startTerminal = window.onload;
  window.onload = async (event) => {
    try {
      await document.fonts.load(`${terminal.dataset.fontSize}px "Roboto Mono"`);
    } catch (error) {
      // the system's monospace font will do
    }
    startTerminal.call(window, event);
    focusTerminal();
  };
})();
