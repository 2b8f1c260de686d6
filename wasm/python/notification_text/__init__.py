"""The notification-text rules in Python, through notification-text.wasm on
wasmtime (docs/wasm.md). Every answer is the bytes the service's HTTP route
gives, with its status:

    from notification_text import NotificationText
    rules = NotificationText()                   # the module inside this package
    rules.answer_body({"text": "**Hi** there"})  # Answer(status=200, body='{"body":"Hi there",…}')
    rules.answer_compose(request, now="2026-11-29T12:00:00Z")

    from notification_text import NotificationRelay
    core = NotificationRelay()                   # the relay's module inside this package
    core.relay({"do": "wake", "record": record, "now": now})  # Answer(status=200, body='{"record":…}')

Two modules from the same engine: notification-text.wasm
(``NotificationText``: body, compose, locale) and notification-text-relay.wasm
(``NotificationRelay``: the relay's core, docs/relay.md "The core", which composes itself).
A bad request is ``Answer(400, <the problem object>)``, as HTTP answers it.
One instance is one module: use it from one thread at a time.

The module is compiled once per process, and the compiled code is kept in
``$NOTIFICATION_TEXT_CACHE`` (default ``$XDG_CACHE_HOME/notification-text``
or ``~/.cache/notification-text``; an empty value keeps nothing on disk; the
8 most recently used are kept), so
a ``NotificationText()`` or ``NotificationRelay()`` after the first takes milliseconds, not a second.
wasmtime runs what it finds there without checking it: the folder is the
user's own (mode 0700), as wasmtime's own cache is.
"""

import ctypes
import datetime
import hashlib
import importlib.metadata
import json
import os
import platform
import tempfile
import threading
from pathlib import Path
from typing import Dict, List, NamedTuple, Optional, Tuple, Union

import wasmtime

ABI_VERSION = 2
MODULE_PATH = Path(__file__).with_name("notification-text.wasm")
RELAY_MODULE_PATH = Path(__file__).with_name("notification-text-relay.wasm")
Request = Union[str, bytes, bytearray, dict, list]

# The exports called per answer: their numbers of 32-bit parameters and results.
_COMMON = {"nt_alloc": (1, 1), "nt_free": (1, 0), "nt_configure": (2, 1)}
_CALLED = {**_COMMON, "nt_body": (2, 1), "nt_compose": (4, 1), "nt_locale": (2, 1)}
_RELAY_CALLED = {**_COMMON, "nt_relay": (2, 1)}
# A request buffer is kept for the calls that follow up to this size, and given back after a larger one.
_KEPT_BYTES = 1 << 16


class Answer(NamedTuple):
    status: int
    body: str


class _Instance:
    """One instance of a module: its own memory and settings (`configure`)."""

    _default_path = MODULE_PATH
    _called = _CALLED

    def __init__(self, path: Optional[Union[str, Path]] = None):
        """The module at ``path`` (default: the one inside this package), instantiated."""
        path = Path(path) if path else self._default_path
        module = compiled_module(path)
        self._store = wasmtime.Store(_engine())
        exports = wasmtime.Instance(self._store, module, []).exports(self._store)  # it imports nothing
        version = exports["nt_abi_version"](self._store)
        if version != ABI_VERSION:
            raise RuntimeError(f"{path.name} speaks ABI {version}, not {ABI_VERSION}")
        edge = _CEdge if USE_C_API and _CEdge.available() else _Edge
        self._edge = edge(self._store, exports, self._called)
        self._edge.answer_slot(exports["nt_answer_slot"](self._store) & 0xFFFFFFFF)
        self._buffers: List[List[int]] = [[0, 0], [0, 0]]  # [pointer, capacity]: the request's, `now`'s

    def configure(self, settings: Request) -> Answer:
        """``serve --app-name`` and ``--default-locale`` for the calls that follow."""
        return self._answer("nt_configure", settings)

    def memory_bytes(self) -> int:
        """The module's memory in bytes (it grows, and never shrinks)."""
        return self._edge.size()

    # One call into the module per answer: the request's bytes go into memory
    # the module allocated for an earlier one, and the answer's place is read
    # from `nt_answer_slot`'s two integers.
    def _answer(self, name: str, *values: Request) -> Answer:
        if len(values) == 1:  # the common case, without the loops
            data, buffer = _utf8(values[0]), self._buffers[0]
            if buffer[1] < len(data):
                self._grow(buffer, len(data))
            try:
                status, body = self._edge.exchange(name, ((buffer[0], data),))
            finally:
                if buffer[1] > _KEPT_BYTES:
                    self._release(buffer)
            return Answer(status, body.decode())
        writes = []
        try:
            for value, buffer in zip(values, self._buffers):
                data = _utf8(value)
                if buffer[1] < len(data):
                    self._grow(buffer, len(data))
                writes.append((buffer[0], data))
            status, body = self._edge.exchange(name, writes)
            if status < 0:
                raise ValueError(f"notification-text: {name} refused its arguments")
            return Answer(status, body.decode())
        finally:
            for buffer in self._buffers:
                if buffer[1] > _KEPT_BYTES:
                    self._release(buffer)

    def _grow(self, buffer: List[int], byte_count: int) -> None:
        self._release(buffer)
        byte_count = max(1 << (byte_count - 1).bit_length(), 256)  # a power of two: few regrowths
        pointer = self._edge.call("nt_alloc", byte_count) & 0xFFFFFFFF
        if pointer == 0:
            raise MemoryError("notification-text: the module has no memory left")
        buffer[:] = [pointer, byte_count]

    def _release(self, buffer: List[int]) -> None:
        if buffer[0]:
            self._edge.call("nt_free", buffer[0])
        buffer[:] = [0, 0]


class NotificationText(_Instance):
    """The browser's module (notification-text.wasm): body, compose, locale."""

    def answer_body(self, request: Request) -> Answer:
        """A ``POST /body`` request: a JSON text (str or UTF-8 bytes) or a value to write as JSON."""
        return self._answer("nt_body", request)

    def answer_compose(self, request: Request, now: Union[None, str, datetime.datetime] = None) -> Answer:
        """A ``POST /compose`` request; ``now`` (default: the current time) is the
        clock a request without ``now`` is composed at."""
        if now is None:
            now = datetime.datetime.now(datetime.timezone.utc)
        if isinstance(now, datetime.datetime):
            now = now.astimezone(datetime.timezone.utc).isoformat().replace("+00:00", "Z")
        return self._answer("nt_compose", request, now)

    def answer_locale(self, question: Request) -> Answer:
        """How a ``locale`` chooses its catalog: ``{locale, defaultLocale, count,
        format, arguments}``, each optional; the ``locale`` command's JSON."""
        return self._answer("nt_locale", question)


class NotificationRelay(_Instance):
    """The relay's module (notification-text-relay.wasm): the relay's core, which composes itself."""

    _default_path = RELAY_MODULE_PATH
    _called = _RELAY_CALLED

    def relay(self, request: Request) -> Answer:
        """A ``POST /relay`` request (docs/relay.md, "The core"): the stored
        record and what happened in, the next record and what to send out; the
        request carries its own ``now``."""
        return self._answer("nt_relay", request)


def _utf8(value: Request) -> bytes:
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass")  # a lone surrogate is the module's to refuse
    if isinstance(value, (bytes, bytearray)):
        return bytes(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


# The compiled module: one engine per process, each module compiled once in
# it, and its code kept on disk for the next process.

_ENGINE: Optional[wasmtime.Engine] = None
_MODULES: Dict[Tuple[str, int, int], wasmtime.Module] = {}
_LOCK = threading.Lock()  # one engine and one compile, whichever thread comes first
_KEPT_FILES = 8  # the compiled modules kept on disk: the most recently used


def _engine() -> wasmtime.Engine:
    global _ENGINE
    with _LOCK:
        if _ENGINE is None:
            _ENGINE = wasmtime.Engine()
        return _ENGINE


def cache_folder() -> Optional[Path]:
    """Where compiled modules are kept, or None when they are not."""
    configured = os.environ.get("NOTIFICATION_TEXT_CACHE")
    if configured is not None:
        return Path(configured) if configured else None
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "notification-text"


def compiled_module(path: Path) -> wasmtime.Module:
    """The module at ``path`` compiled by this process's engine: once per
    process, from the disk cache when it has this module for this wasmtime."""
    path = path.resolve()
    status = path.stat()
    key = (str(path), status.st_size, status.st_mtime_ns)
    engine = _engine()
    with _LOCK:
        module = _MODULES.get(key)
        if module is None:
            module = _MODULES[key] = _compile(engine, path.read_bytes())
        return module


def _compile(engine: wasmtime.Engine, wasm: bytes) -> wasmtime.Module:
    folder = cache_folder()
    if folder is None:
        return wasmtime.Module(engine, wasm)
    kept = folder / "{}-wasmtime-{}-{}.cwasm".format(
        hashlib.sha256(wasm).hexdigest()[:32], importlib.metadata.version("wasmtime"), platform.machine())
    if kept.is_file():
        try:
            module = wasmtime.Module.deserialize_file(engine, str(kept))
            os.utime(kept)  # used: the pruning below keeps the recently used
            return module
        except wasmtime.WasmtimeError:
            pass  # written with other settings: compiled again and replaced
        except OSError:
            return module
    module = wasmtime.Module(engine, wasm)
    partial = None
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".partial", delete=False) as file:
            partial = file.name
            file.write(module.serialize())
        os.replace(partial, kept)  # whole or absent, for a process reading it meanwhile
        for stale in sorted(folder.glob("*.cwasm"), key=lambda path: path.stat().st_mtime)[:-_KEPT_FILES]:
            stale.unlink()  # an engine change leaves its predecessor's code behind
    except OSError:  # a cache that cannot be written only costs the next process the compile
        if partial:
            Path(partial).unlink(missing_ok=True)
    return module


# The edge with the instance: calls with 32-bit integers, bytes in and out of
# its memory, every range checked against the memory's size.

USE_C_API = True  # False: wasmtime's public API only (the checks compare the two)


class _Edge:
    """Through wasmtime's public API: each call converts its arguments by the function's type."""

    def __init__(self, store: wasmtime.Store, exports: "wasmtime._instance.InstanceExports",
                 called: Dict[str, Tuple[int, int]]):
        self._store = store
        self._called = called
        self._functions = {name: exports[name] for name in called}
        self._memory = exports["memory"]

    def call(self, name: str, *arguments: int) -> int:
        return self._functions[name](self._store, *arguments)

    def size(self) -> int:
        return self._memory.data_len(self._store)

    def answer_slot(self, slot: int) -> None:
        """Where `exchange` reads the answer's place (`nt_answer_slot`), for the instance's life."""
        self._slot = slot

    def exchange(self, name: str, writes: List[Tuple[int, bytes]]) -> Tuple[int, bytes]:
        """Writes each (pointer, bytes), calls `name` with each pointer and
        length, and answers its status and the bytes the answer slot points to."""
        store, memory, arguments, slot = self._store, self._memory, [], self._slot
        for pointer, data in writes:
            _check_range(pointer, len(data), self.size())
            memory.write(store, data, pointer)
            arguments += [pointer, len(data)]
        status = self.call(name, *arguments)
        _check_range(slot, 8, self.size())
        place = memory.read(store, slot, slot + 8)
        start, length = int.from_bytes(place[:4], "little"), int.from_bytes(place[4:], "little")
        _check_range(start, length, self.size())
        return status, bytes(memory.read(store, start, start + length))


class _CEdge(_Edge):
    """Through wasmtime's C API, as wasmtime-py's own calls reach it, without
    their conversions: `wasmtime_func_call_unchecked` with the integers in
    place, the memory read and written where it is. Safe because every
    called export's type was checked once to be i32s to at most one i32
    (`_check_types`), and every range is checked against the memory's size
    before it is touched."""

    @staticmethod
    def available() -> bool:
        try:
            from wasmtime import _ffi

            return all(hasattr(_ffi, name) for name in (
                "dll", "wasmtime_func_call_unchecked", "wasmtime_memory_data_size", "wasmtime_context_t",
                "wasmtime_memory_t", "wasmtime_val_raw_t", "wasm_trap_t"))
        except ImportError:
            return False

    def __init__(self, store: wasmtime.Store, exports: "wasmtime._instance.InstanceExports",
                 called: Dict[str, Tuple[int, int]]):
        super().__init__(store, exports, called)
        from wasmtime import _ffi

        _check_types(store, self._functions, called)
        self._context = store._context()
        self._references = {name: ctypes.byref(function._func) for name, function in self._functions.items()}
        self._values = (_ffi.wasmtime_val_raw_t * 4)()
        self._trap = ctypes.POINTER(_ffi.wasm_trap_t)()
        self._trap_reference = ctypes.byref(self._trap)
        self._memory_reference = ctypes.byref(self._memory._memory)
        self._call_unchecked = _ffi.wasmtime_func_call_unchecked
        self._data_size = _ffi.wasmtime_memory_data_size
        # wasmtime_memory_data as an address (wasmtime-py's answers a pointer object).
        address = ctypes.CFUNCTYPE(ctypes.c_void_p, ctypes.POINTER(_ffi.wasmtime_context_t),
                                   ctypes.POINTER(_ffi.wasmtime_memory_t))
        self._data = address(("wasmtime_memory_data", _ffi.dll))
        # The values' i32 members as one array of integers: a union's members
        # all start at its first byte, so no object is made per argument.
        stride = ctypes.sizeof(_ffi.wasmtime_val_raw_t) // 4
        self._integers = (ctypes.c_int32 * (4 * stride)).from_buffer(self._values)
        self._at = [index * stride for index in range(4)]
        self._base, self._size, self._slot, self._place = 0, -1, None, None
        self._view()

    # The memory's address and size as the last call left them: only a call
    # into the module grows the memory, and only growing moves it.
    def _view(self) -> None:
        size = self._data_size(self._context, self._memory_reference)
        if size != self._size:
            self._base, self._size = self._data(self._context, self._memory_reference), size
            if self._slot is not None:
                self._place = _Place.from_address(self._base + self._slot)

    def answer_slot(self, slot: int) -> None:
        """Where `exchange` reads the answer's place (`nt_answer_slot`), for the instance's life."""
        self._view()  # the call that answered `slot` may have grown the memory
        if not 0 <= slot <= self._size - 8:
            raise RuntimeError("notification-text: the answer slot is outside the memory")
        self._slot, self._place = slot, _Place.from_address(self._base + slot)

    def call(self, name: str, *arguments: int) -> int:
        values = self._values
        for index, argument in enumerate(arguments):
            values[index].i32 = argument
        self._invoke(name)
        return values[0].i32

    def _invoke(self, name: str) -> None:
        error = self._call_unchecked(self._context, self._references[name], self._values, 4, self._trap_reference)
        self._view()
        if error or self._trap:
            self._invoke_failed(error)

    def _invoke_failed(self, error) -> None:
        self._view()
        if error:
            raise wasmtime.WasmtimeError._from_ptr(error)
        if self._trap:  # a fault in the module: this instance is done
            trap, self._trap = self._trap, ctypes.POINTER(type(self._trap.contents))()
            self._trap_reference = ctypes.byref(self._trap)
            raise wasmtime.Trap._from_ptr(trap)

    def size(self) -> int:
        return self._size

    def exchange(self, name: str, writes: List[Tuple[int, bytes]]) -> Tuple[int, bytes]:
        # The hot path of every answer, written out: a Python call costs as
        # much as the module's work on a typical body.
        integers, at, base, size = self._integers, self._at, self._base, self._size
        index = 0
        for pointer, data in writes:
            if not 0 <= pointer <= size - len(data):
                raise RuntimeError(f"notification-text: {len(data)} bytes at {pointer} are outside the memory")
            ctypes.memmove(base + pointer, data, len(data))
            integers[at[index]] = pointer
            integers[at[index + 1]] = len(data)
            index += 2
        error = self._call_unchecked(self._context, self._references[name], self._values, 4, self._trap_reference)
        if error or self._trap:
            self._invoke_failed(error)
        size = self._data_size(self._context, self._memory_reference)
        if size != self._size:
            self._view()
        place = self._place
        start, length = place.start, place.length
        if not 0 <= start <= size - length:
            raise RuntimeError(f"notification-text: the answer's {length} bytes at {start} are outside the memory")
        return integers[0], ctypes.string_at(self._base + start, length)


class _Place(ctypes.LittleEndianStructure):
    """`nt_answer_slot`'s two integers: the module's memory is little-endian."""

    _fields_ = [("start", ctypes.c_uint32), ("length", ctypes.c_uint32)]


def _check_types(store: wasmtime.Store, functions: Dict[str, wasmtime.Func], called: Dict[str, Tuple[int, int]]) -> None:
    for name, function in functions.items():
        kind = function.type(store)
        parameters = [str(value) for value in kind.params]
        results = [str(value) for value in kind.results]
        if (parameters, results) != tuple(["i32"] * count for count in called[name]):
            raise RuntimeError(f"notification-text: {name} is ({parameters}) -> {results}, not the ABI's")


def _check_range(pointer: int, length: int, size: int) -> None:
    if pointer < 0 or length < 0 or pointer + length > size:
        raise RuntimeError(f"notification-text.wasm: {length} bytes at {pointer} are outside its {size}")
