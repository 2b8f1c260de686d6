// The two C functions Embedded Swift calls that the module provides itself
// rather than take from wasi-libc, whose versions import WASI functions
// (random_get, fd_write): the module imports nothing, so a browser, Node or
// any WebAssembly runtime instantiates it with no import object.
// Everything else C (malloc's posix_memalign and free, memcpy, memmove,
// memset, memcmp, strlen) is wasi-libc's, which imports nothing for them.
#include <stddef.h>
#include <stdint.h>

// The seed of Swift's Hasher (Set and Dictionary): fixed, so a module gives
// the same answers on every run. Hash flooding needs an attacker who also
// controls the recipient's own device; the service keeps its random seed.
void arc4random_buf(void *buffer, size_t count) {
  uint64_t state = 0x9E3779B97F4A7C15u;
  unsigned char *bytes = buffer;
  for (size_t index = 0; index < count; index++) {
    state = state * 6364136223846793005u + 1442695040888963407u;
    bytes[index] = (unsigned char)(state >> 56);
  }
}

// Embedded Swift prints a fatal error's message with putchar before it
// traps; the module has no console, so the message is dropped.
int putchar(int character) { return character; }

// A 128-bit product's low 128 bits: the one compiler-rt builtin the engine
// needs (Swift's multipliedFullWidth on UInt64, 64 x 64 -> 128), written
// here rather than taken from another package. Four 32 x 32 -> 64 products
// of the low words, then the cross terms, whose high halves fall off.
unsigned __int128 __multi3(unsigned __int128 a, unsigned __int128 b) {
  uint64_t a_low = (uint64_t)a, a_high = (uint64_t)(a >> 64);
  uint64_t b_low = (uint64_t)b, b_high = (uint64_t)(b >> 64);
  uint64_t a0 = a_low & 0xFFFFFFFFu, a1 = a_low >> 32, b0 = b_low & 0xFFFFFFFFu, b1 = b_low >> 32;
  uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
  uint64_t low = (middle << 32) | (p00 & 0xFFFFFFFFu);
  uint64_t high = p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32) + a_low * b_high + a_high * b_low;
  return ((unsigned __int128)high << 64) | low;
}
