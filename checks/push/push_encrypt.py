"""Web Push payloads through pywebpush (PyPI), as a relay sends them: each payload encrypted with RFC 8291
`aes128gcm` for a fresh subscription must be one record of at most 4,096 bytes (push.md section 7, P13), and
decrypt back to the payload's bytes. A payload one byte past the limit (3,994 bytes) must not fit: the check
can fail.
"""
from __future__ import annotations

import base64
import json
import os

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from pywebpush import WebPusher

RECORD_BYTES = 4096


def _b64(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class Subscription:
    """A browser's side: its key pair and auth secret, as a push subscription shows them."""

    def __init__(self):
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(serialization.Encoding.X962,
                                                    serialization.PublicFormat.UncompressedPoint)
        self.info = {"endpoint": "https://push.example/sub/1", "keys": {"p256dh": _b64(public), "auth": _b64(self.auth)}}

    def encrypt(self, plaintext):
        """What pywebpush sends as the request body."""
        return WebPusher(self.info).encode(plaintext, content_encoding="aes128gcm")["body"]

    def decrypt(self, body):
        return http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")


def encrypt_all(payloads):
    """Each payload (parsed JSON) written as push.md P19/P20 write it, encrypted, measured and decrypted."""
    subscription = Subscription()
    failed = 0
    largest = 0
    for index, payload in enumerate(payloads):
        plaintext = json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
        body = subscription.encrypt(plaintext)
        largest = max(largest, len(body))
        if len(body) > RECORD_BYTES or subscription.decrypt(body) != plaintext:
            failed += 1
            print(f"FAIL payload {index}: {len(plaintext)} bytes encrypt to {len(body)}")
    over = subscription.encrypt(b"x" * 3994)
    if len(over) <= RECORD_BYTES:
        failed += 1
        print(f"FAIL a 3,994-byte payload encrypts to {len(over)} bytes: the check cannot fail")
    print(f"pywebpush: {len(payloads) - failed} of {len(payloads)} Web Push payloads encrypt to one record of at most "
          f"{RECORD_BYTES} bytes (the largest {largest}); 3,994 bytes encrypt to {len(over)}")
    return failed == 0
