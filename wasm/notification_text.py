"""The notification-text rules in Python, through notification-text.wasm on
wasmtime (docs/wasm.md). Every answer is the bytes the service's HTTP route
gives, with its status:

    from notification_text import NotificationText
    rules = NotificationText()                 # notification-text.wasm beside this file
    rules.answer_body({"text": "**Hi** there"})  # Answer(status=200, body='{"body":"Hi there",…}')
    rules.answer_compose(request, now="2026-11-29T12:00:00Z")

A bad request is ``Answer(400, <the problem object>)``, as HTTP answers it.
One instance is one module: use it from one thread at a time.
"""

import datetime
import json
from pathlib import Path
from typing import NamedTuple, Optional, Union

import wasmtime

ABI_VERSION = 1
Request = Union[str, bytes, dict, list]


class Answer(NamedTuple):
    status: int
    body: str


class NotificationText:
    def __init__(self, path: Optional[Union[str, Path]] = None):
        path = Path(path) if path else Path(__file__).with_name("notification-text.wasm")
        self._store = wasmtime.Store()
        module = wasmtime.Module.from_file(self._store.engine, str(path))
        instance = wasmtime.Instance(self._store, module, [])  # it imports nothing
        self._exports = instance.exports(self._store)
        self._memory = self._exports["memory"]
        version = self._exports["nt_abi_version"](self._store)
        if version != ABI_VERSION:
            raise RuntimeError(f"notification-text.wasm speaks ABI {version}, not {ABI_VERSION}")

    def answer_body(self, request: Request) -> Answer:
        """A ``POST /body`` request."""
        return self._call("nt_body", request)

    def answer_compose(self, request: Request, now: Union[None, str, datetime.datetime] = None) -> Answer:
        """A ``POST /compose`` request; ``now`` (default: the current time) is the
        clock a request without ``now`` is composed at."""
        if now is None:
            now = datetime.datetime.now(datetime.timezone.utc)
        if isinstance(now, datetime.datetime):
            now = now.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
        return self._call("nt_compose", request, now)

    def answer_relay(self, request: Request) -> Answer:
        """A ``POST /relay`` request: the relay's core (docs/relay.md), the
        stored record and what happened in, the next record and the sends out."""
        return self._call("nt_relay", request)

    def answer_locale(self, question: Request) -> Answer:
        """How a ``locale`` chooses its catalog: ``{locale, defaultLocale, count,
        format, arguments}``, each optional; the ``locale`` command's JSON."""
        return self._call("nt_locale", question)

    def configure(self, settings: Request) -> Answer:
        """``serve --app-name`` and ``--default-locale`` for the calls that follow."""
        return self._call("nt_configure", settings)

    def memory_bytes(self) -> int:
        """The module's memory in bytes (it grows, and never shrinks)."""
        return self._memory.data_len(self._store)

    def _call(self, name: str, *values: Request) -> Answer:
        store, exports = self._store, self._exports
        pointers, arguments = [], []
        try:
            for value in values:
                if isinstance(value, str):
                    data = value.encode()
                elif isinstance(value, bytes):
                    data = value
                else:
                    data = json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()
                pointer = exports["nt_alloc"](store, len(data))
                if pointer == 0:
                    raise MemoryError("notification-text: the module has no memory left")
                pointers.append(pointer)
                self._memory.write(store, data, pointer)
                arguments += [pointer, len(data)]
            status = exports[name](store, *arguments)
            if status < 0:
                raise ValueError(f"notification-text: {name} refused its arguments")
            start = exports["nt_answer_pointer"](store)
            length = exports["nt_answer_length"](store)
            return Answer(status, self._memory.read(store, start, start + length).decode())
        finally:
            for pointer in pointers:
                exports["nt_free"](store, pointer)
