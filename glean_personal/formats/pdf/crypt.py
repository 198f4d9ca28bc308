"""The standard security handler, for files that open with an empty password.

Many PDFs are encrypted only to carry permission flags: their user password
is empty and any viewer opens them. This module derives the file key from the
empty password (revisions 2 to 6), and decrypts strings and streams with RC4
or AES in CBC mode. AES is written here in plain Python from its definition
(FIPS-197): table-driven, one 16-byte block at a time, enough for text.
"""
from __future__ import annotations

import hashlib
import struct
from typing import Any, Callable, Dict, List, Optional, Tuple

_PAD = bytes.fromhex("28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A")


class NeedsPassword(Exception):
    """The empty user password does not open this file."""


class Unsupported(Exception):
    """An encryption scheme this reader does not implement."""


def rc4(key: bytes, data: bytes) -> bytes:
    s = list(range(256))
    j = 0
    klen = len(key)
    for i in range(256):
        j = (j + s[i] + key[i % klen]) & 0xFF
        s[i], s[j] = s[j], s[i]
    out = bytearray(len(data))
    i = j = 0
    for n, byte in enumerate(data):
        i = (i + 1) & 0xFF
        si = s[i]
        j = (j + si) & 0xFF
        sj = s[j]
        s[i] = sj
        s[j] = si
        out[n] = byte ^ s[(si + sj) & 0xFF]
    return bytes(out)


# --- AES (FIPS-197) -------------------------------------------------------

def _xtime(a: int) -> int:
    a <<= 1
    return a ^ 0x11B if a & 0x100 else a


def _build_tables():
    sbox = [0] * 256
    inv = [0] * 256
    exp = [0] * 255
    log = [0] * 256
    x = 1
    for i in range(255):   # 3 generates the multiplicative group
        exp[i] = x
        log[x] = i
        x ^= _xtime(x)
    for a in range(256):
        b = exp[(255 - log[a]) % 255] if a else 0
        s = b
        for _ in range(4):
            b = ((b << 1) | (b >> 7)) & 0xFF
            s ^= b
        sbox[a] = s ^ 0x63
    for i, v in enumerate(sbox):
        inv[v] = i

    def mul(a: int, b: int) -> int:
        r = 0
        while b:
            if b & 1:
                r ^= a
            a = _xtime(a)
            b >>= 1
        return r

    te = [[0] * 256 for _ in range(4)]
    td = [[0] * 256 for _ in range(4)]
    for i in range(256):
        s = sbox[i]
        w = (mul(s, 2) << 24) | (s << 16) | (s << 8) | mul(s, 3)
        t = inv[i]
        d = (mul(t, 14) << 24) | (mul(t, 9) << 16) | (mul(t, 13) << 8) | mul(t, 11)
        for k in range(4):
            te[k][i] = ((w >> (8 * k)) | (w << (32 - 8 * k))) & 0xFFFFFFFF
            td[k][i] = ((d >> (8 * k)) | (d << (32 - 8 * k))) & 0xFFFFFFFF
    return sbox, inv, te, td


_SBOX, _INV, _TE, _TD = _build_tables()


class AES:
    """One AES key (128, 192 or 256 bits) with block encryption and decryption."""

    def __init__(self, key: bytes) -> None:
        nk = len(key) // 4
        if len(key) not in (16, 24, 32):
            raise Unsupported("bad AES key length")
        self.rounds = nk + 6
        words = list(struct.unpack(f">{nk}I", key))
        rcon = 1
        sb = _SBOX
        for i in range(nk, 4 * (self.rounds + 1)):
            t = words[i - 1]
            if i % nk == 0:
                t = ((sb[(t >> 16) & 0xFF] << 24) | (sb[(t >> 8) & 0xFF] << 16)
                     | (sb[t & 0xFF] << 8) | sb[t >> 24]) ^ (rcon << 24)
                rcon = _xtime(rcon)
            elif nk > 6 and i % nk == 4:
                t = (sb[t >> 24] << 24) | (sb[(t >> 16) & 0xFF] << 16) | (sb[(t >> 8) & 0xFF] << 8) | sb[t & 0xFF]
            words.append(words[i - nk] ^ t)
        self.ek = [words[4 * r:4 * r + 4] for r in range(self.rounds + 1)]
        self._dk: Optional[List[List[int]]] = None

    @property
    def dk(self) -> List[List[int]]:
        """Round keys of the equivalent inverse cipher, made on first use."""
        if self._dk is not None:
            return self._dk
        sb = _SBOX
        dk = [self.ek[self.rounds]]
        te0 = _TD
        for r in range(self.rounds - 1, 0, -1):
            row = []
            for w in self.ek[r]:
                row.append(te0[0][sb[w >> 24]] ^ te0[1][sb[(w >> 16) & 0xFF]]
                           ^ te0[2][sb[(w >> 8) & 0xFF]] ^ te0[3][sb[w & 0xFF]])
            dk.append(row)
        dk.append(self.ek[0])
        self._dk = dk
        return dk

    def encrypt_block(self, block: bytes) -> bytes:
        t0, t1, t2, t3 = _TE
        k = self.ek
        s0, s1, s2, s3 = struct.unpack(">4I", block)
        s0 ^= k[0][0]
        s1 ^= k[0][1]
        s2 ^= k[0][2]
        s3 ^= k[0][3]
        for r in range(1, self.rounds):
            kr = k[r]
            a = t0[s0 >> 24] ^ t1[(s1 >> 16) & 255] ^ t2[(s2 >> 8) & 255] ^ t3[s3 & 255] ^ kr[0]
            b = t0[s1 >> 24] ^ t1[(s2 >> 16) & 255] ^ t2[(s3 >> 8) & 255] ^ t3[s0 & 255] ^ kr[1]
            c = t0[s2 >> 24] ^ t1[(s3 >> 16) & 255] ^ t2[(s0 >> 8) & 255] ^ t3[s1 & 255] ^ kr[2]
            d = t0[s3 >> 24] ^ t1[(s0 >> 16) & 255] ^ t2[(s1 >> 8) & 255] ^ t3[s2 & 255] ^ kr[3]
            s0, s1, s2, s3 = a, b, c, d
        sb = _SBOX
        kr = k[self.rounds]
        out = []
        for i, (w0, w1, w2, w3) in enumerate(((s0, s1, s2, s3), (s1, s2, s3, s0),
                                              (s2, s3, s0, s1), (s3, s0, s1, s2))):
            out.append(((sb[w0 >> 24] << 24) | (sb[(w1 >> 16) & 255] << 16)
                        | (sb[(w2 >> 8) & 255] << 8) | sb[w3 & 255]) ^ kr[i])
        return struct.pack(">4I", *out)

    def decrypt_block(self, block: bytes) -> bytes:
        t0, t1, t2, t3 = _TD
        k = self.dk
        s0, s1, s2, s3 = struct.unpack(">4I", block)
        s0 ^= k[0][0]
        s1 ^= k[0][1]
        s2 ^= k[0][2]
        s3 ^= k[0][3]
        for r in range(1, self.rounds):
            kr = k[r]
            a = t0[s0 >> 24] ^ t1[(s3 >> 16) & 255] ^ t2[(s2 >> 8) & 255] ^ t3[s1 & 255] ^ kr[0]
            b = t0[s1 >> 24] ^ t1[(s0 >> 16) & 255] ^ t2[(s3 >> 8) & 255] ^ t3[s2 & 255] ^ kr[1]
            c = t0[s2 >> 24] ^ t1[(s1 >> 16) & 255] ^ t2[(s0 >> 8) & 255] ^ t3[s3 & 255] ^ kr[2]
            d = t0[s3 >> 24] ^ t1[(s2 >> 16) & 255] ^ t2[(s1 >> 8) & 255] ^ t3[s0 & 255] ^ kr[3]
            s0, s1, s2, s3 = a, b, c, d
        ib = _INV
        kr = k[self.rounds]
        out = []
        for i, (w0, w1, w2, w3) in enumerate(((s0, s3, s2, s1), (s1, s0, s3, s2),
                                              (s2, s1, s0, s3), (s3, s2, s1, s0))):
            out.append(((ib[w0 >> 24] << 24) | (ib[(w1 >> 16) & 255] << 16)
                        | (ib[(w2 >> 8) & 255] << 8) | ib[w3 & 255]) ^ kr[i])
        return struct.pack(">4I", *out)

    def encrypt_cbc(self, data: bytes, iv: bytes) -> bytes:
        """CBC encryption of whole blocks, with the rounds inlined (the AES-256 key hash needs speed)."""
        t0, t1, t2, t3 = _TE
        sb = _SBOX
        k = self.ek
        rounds = self.rounds
        k0 = k[0]
        kl = k[rounds]
        n = len(data) // 16
        words = struct.unpack(f">{4 * n}I", data[:16 * n])
        p0, p1, p2, p3 = struct.unpack(">4I", iv)
        out = []
        for i in range(0, 4 * n, 4):
            s0 = words[i] ^ p0 ^ k0[0]
            s1 = words[i + 1] ^ p1 ^ k0[1]
            s2 = words[i + 2] ^ p2 ^ k0[2]
            s3 = words[i + 3] ^ p3 ^ k0[3]
            for r in range(1, rounds):
                kr = k[r]
                a = t0[s0 >> 24] ^ t1[(s1 >> 16) & 255] ^ t2[(s2 >> 8) & 255] ^ t3[s3 & 255] ^ kr[0]
                b = t0[s1 >> 24] ^ t1[(s2 >> 16) & 255] ^ t2[(s3 >> 8) & 255] ^ t3[s0 & 255] ^ kr[1]
                c = t0[s2 >> 24] ^ t1[(s3 >> 16) & 255] ^ t2[(s0 >> 8) & 255] ^ t3[s1 & 255] ^ kr[2]
                d = t0[s3 >> 24] ^ t1[(s0 >> 16) & 255] ^ t2[(s1 >> 8) & 255] ^ t3[s2 & 255] ^ kr[3]
                s0, s1, s2, s3 = a, b, c, d
            p0 = ((sb[s0 >> 24] << 24) | (sb[(s1 >> 16) & 255] << 16) | (sb[(s2 >> 8) & 255] << 8) | sb[s3 & 255]) ^ kl[0]
            p1 = ((sb[s1 >> 24] << 24) | (sb[(s2 >> 16) & 255] << 16) | (sb[(s3 >> 8) & 255] << 8) | sb[s0 & 255]) ^ kl[1]
            p2 = ((sb[s2 >> 24] << 24) | (sb[(s3 >> 16) & 255] << 16) | (sb[(s0 >> 8) & 255] << 8) | sb[s1 & 255]) ^ kl[2]
            p3 = ((sb[s3 >> 24] << 24) | (sb[(s0 >> 16) & 255] << 16) | (sb[(s1 >> 8) & 255] << 8) | sb[s2 & 255]) ^ kl[3]
            out += (p0, p1, p2, p3)
        return struct.pack(f">{len(out)}I", *out)

    def decrypt_cbc(self, data: bytes, iv: bytes) -> bytes:
        """CBC decryption of whole blocks, with the rounds inlined."""
        t0, t1, t2, t3 = _TD
        ib = _INV
        k = self.dk
        rounds = self.rounds
        k0 = k[0]
        kl = k[rounds]
        n = len(data) // 16
        words = struct.unpack(f">{4 * n}I", data[:16 * n])
        p0, p1, p2, p3 = struct.unpack(">4I", iv)
        out = []
        for i in range(0, 4 * n, 4):
            c0, c1, c2, c3 = words[i], words[i + 1], words[i + 2], words[i + 3]
            s0 = c0 ^ k0[0]
            s1 = c1 ^ k0[1]
            s2 = c2 ^ k0[2]
            s3 = c3 ^ k0[3]
            for r in range(1, rounds):
                kr = k[r]
                a = t0[s0 >> 24] ^ t1[(s3 >> 16) & 255] ^ t2[(s2 >> 8) & 255] ^ t3[s1 & 255] ^ kr[0]
                b = t0[s1 >> 24] ^ t1[(s0 >> 16) & 255] ^ t2[(s3 >> 8) & 255] ^ t3[s2 & 255] ^ kr[1]
                c = t0[s2 >> 24] ^ t1[(s1 >> 16) & 255] ^ t2[(s0 >> 8) & 255] ^ t3[s3 & 255] ^ kr[2]
                d = t0[s3 >> 24] ^ t1[(s2 >> 16) & 255] ^ t2[(s1 >> 8) & 255] ^ t3[s0 & 255] ^ kr[3]
                s0, s1, s2, s3 = a, b, c, d
            out += (
                ((ib[s0 >> 24] << 24) | (ib[(s3 >> 16) & 255] << 16) | (ib[(s2 >> 8) & 255] << 8) | ib[s1 & 255]) ^ kl[0] ^ p0,
                ((ib[s1 >> 24] << 24) | (ib[(s0 >> 16) & 255] << 16) | (ib[(s3 >> 8) & 255] << 8) | ib[s2 & 255]) ^ kl[1] ^ p1,
                ((ib[s2 >> 24] << 24) | (ib[(s1 >> 16) & 255] << 16) | (ib[(s0 >> 8) & 255] << 8) | ib[s3 & 255]) ^ kl[2] ^ p2,
                ((ib[s3 >> 24] << 24) | (ib[(s2 >> 16) & 255] << 16) | (ib[(s1 >> 8) & 255] << 8) | ib[s0 & 255]) ^ kl[3] ^ p3,
            )
            p0, p1, p2, p3 = c0, c1, c2, c3
        return struct.pack(f">{len(out)}I", *out)


def aes_cbc_decrypt(key: bytes, data: bytes) -> bytes:
    """PDF's AES layout: a 16-byte IV, then CBC blocks with PKCS#5 padding."""
    if len(data) < 32:
        return b""
    plain = AES(key).decrypt_cbc(data[16:], data[:16])
    pad = plain[-1] if plain else 0
    if 1 <= pad <= 16 and plain.endswith(bytes((pad,)) * pad):
        plain = plain[:-pad]
    return plain


# --- the security handler --------------------------------------------------

class Decryptor:
    """Decrypts one file's strings and streams, per object number."""

    def __init__(self, encrypt: Dict[str, Any], file_id: bytes, resolve: Callable[[Any], Any]) -> None:
        if resolve(encrypt.get("Filter")) != "Standard":
            raise Unsupported(f"security handler {encrypt.get('Filter')}")
        self.v = _num(resolve(encrypt.get("V")), 0)
        self.r = _num(resolve(encrypt.get("R")), 2)
        self.length = _num(resolve(encrypt.get("Length")), 40) // 8 if self.v > 1 else 5
        o = _bytes(resolve(encrypt.get("O")))
        u = _bytes(resolve(encrypt.get("U")))
        p = _num(resolve(encrypt.get("P")), 0) & 0xFFFFFFFF
        self.encrypt_metadata = resolve(encrypt.get("EncryptMetadata")) is not False
        self.stream_method = self.string_method = "RC4"
        if self.v >= 4:
            filters = resolve(encrypt.get("CF")) or {}
            self.stream_method = self._method(filters, resolve(encrypt.get("StmF")), resolve)
            self.string_method = self._method(filters, resolve(encrypt.get("StrF")), resolve)
        if self.r >= 5:
            self.key = _key_r6(o, u, encrypt, resolve, self.r)
        else:
            self.key = _key_r4(o, u, p, file_id, self.r, max(5, min(self.length, 16)),
                               self.encrypt_metadata)
        self._cache: Dict[Tuple[int, int, bool], bytes] = {}

    @staticmethod
    def _method(filters: Any, name: Any, resolve: Callable[[Any], Any]) -> str:
        if name is None or name == "Identity":
            return "Identity"
        cf = resolve(filters.get(name)) if isinstance(filters, dict) else None
        method = resolve(cf.get("CFM")) if isinstance(cf, dict) else None
        if method in ("AESV2", "AESV3"):
            return "AES"
        if method == "None":
            return "Identity"
        return "RC4"

    def _object_key(self, num: int, gen: int, aes: bool) -> bytes:
        if self.r >= 5:
            return self.key
        cached = self._cache.get((num, gen, aes))
        if cached is None:
            seed = self.key + struct.pack("<I", num)[:3] + struct.pack("<I", gen)[:2]
            if aes:
                seed += b"sAlT"
            cached = hashlib.md5(seed).digest()[:min(len(self.key) + 5, 16)]
            self._cache[(num, gen, aes)] = cached
        return cached

    def _decrypt(self, method: str, data: bytes, num: int, gen: int) -> bytes:
        if method == "Identity":
            return data
        aes = method == "AES"
        key = self._object_key(num, gen, aes)
        return aes_cbc_decrypt(key, data) if aes else rc4(key, data)

    def string(self, data: bytes, num: int, gen: int) -> bytes:
        return self._decrypt(self.string_method, data, num, gen)

    def stream(self, data: bytes, num: int, gen: int) -> bytes:
        return self._decrypt(self.stream_method, data, num, gen)


def _num(value: Any, default: int) -> int:
    return value if isinstance(value, int) else default


def _bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else b""


def _key_r4(o: bytes, u: bytes, p: int, file_id: bytes, r: int, length: int, meta: bool) -> bytes:
    """Algorithm 2 with the empty password, checked against /U (algorithms 4 and 5)."""
    h = hashlib.md5(_PAD + o[:32] + struct.pack("<I", p) + file_id)
    if r >= 4 and not meta:
        h.update(b"\xff\xff\xff\xff")
    key = h.digest()
    if r >= 3:
        for _ in range(50):
            key = hashlib.md5(key[:length]).digest()
    key = key[:length]
    if r == 2:
        ok = rc4(key, _PAD) == u[:32]
    else:
        check = rc4(key, hashlib.md5(_PAD + file_id).digest())
        for i in range(1, 20):
            check = rc4(bytes(b ^ i for b in key), check)
        ok = check[:16] == u[:16]
    if not ok:
        raise NeedsPassword()
    return key


def _key_r6(o: bytes, u: bytes, encrypt: Dict[str, Any], resolve: Callable[[Any], Any], r: int) -> bytes:
    """Algorithm 2.A with the empty password: check /U, then unwrap /UE."""
    ue = _bytes(resolve(encrypt.get("UE")))
    if len(u) < 48 or len(ue) < 32:
        raise Unsupported("malformed AES-256 encryption dictionary")
    password = b""
    inter = _hash(password, u[40:48], b"", r)
    key = AES(inter).decrypt_cbc(ue[:32], bytes(16))
    # /Perms, decrypted with the right key, reads "adb" at bytes 9-11: one block
    # instead of a second costly hash to check the password
    perms = _bytes(resolve(encrypt.get("Perms")))
    if len(perms) >= 16 and AES(key).decrypt_block(perms[:16])[9:12] == b"adb":
        return key
    if _hash(password, u[32:40], b"", r) != u[:32]:
        raise NeedsPassword()
    return key


def _hash(password: bytes, salt: bytes, udata: bytes, r: int) -> bytes:
    k = hashlib.sha256(password + salt + udata).digest()
    if r == 5:
        return k
    i = 0
    while True:
        k1 = (password + k + udata) * 64
        e = AES(k[:16]).encrypt_cbc(k1, k[16:32])
        mod = sum(e[:16]) % 3
        k = (hashlib.sha256, hashlib.sha384, hashlib.sha512)[mod](e).digest()
        i += 1
        if i >= 64 and e[-1] <= i - 32:
            break
        if i > 2000:
            break
    return k[:32]


def decrypt_tree(obj: Any, fn: Callable[[bytes], bytes], depth: int = 0) -> Any:
    """A copy of `obj` with every string passed through `fn` (streams untouched)."""
    if isinstance(obj, bytes):
        return fn(obj)
    if depth > 32:
        return obj
    if isinstance(obj, list):
        return [decrypt_tree(x, fn, depth + 1) for x in obj]
    if isinstance(obj, dict):
        return {k: decrypt_tree(v, fn, depth + 1) for k, v in obj.items()}
    return obj


__all__: List[str] = ["Decryptor", "NeedsPassword", "Unsupported", "rc4", "AES", "decrypt_tree"]
