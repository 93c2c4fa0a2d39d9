#!/usr/bin/python3
"""Independent model of the DTA translator (translation.md) for the engine's acceptance test.

Given a seed, writes into an output directory:
  config.yaml     the translator configuration the model assumes,
  reports.pcap    random DTA reports of every primitive, both base-header forms (baseHeader: auto),
  responses.pcap  the collector's ATOMIC ACKs (one per FETCH_ADD, 500 ns after it left the translator; none for
                  those that leave in the final flush, whose answers would come after the capture ends),
  expected.pcap   the RoCEv2 frames the translator must emit, built with scapy (scapy.contrib.roce BTH and
                  its ICRC; RETH and AtomicETH packed by hand),
  summary.json    counts for the Java side.

The model simulates the engine clock as the replay drives it: before every report every timer due by then runs at
its own time, as a continuously polled live engine would run it (at each such time first the held frame of every QP
that has been idle for HOLD_NS, then the Append and postcard idle flushes), then the report is translated. Reports are
spaced by whole microseconds, so every timer falls on a whole microsecond and none between a frame and its
ATOMIC ACK. Nothing here imports or mirrors the Java code: it is written from the specification.
"""
import argparse
import json
import os
import random
import struct
import zlib
from collections import OrderedDict

from scapy.layers.inet import IP, UDP
from scapy.layers.l2 import Ether
from scapy.packet import Raw
from scapy.contrib.roce import BTH

HOLD_NS = 20_000            # TranslatorEngine.HOLD_NANOS: idle time before the held frame leaves with AckReq
POSTCARD_CACHE = 256        # postcards.cacheEntries of the generated configuration (direct-mapped)
DTA_PORT = 40040
REQUEST_INTERVAL = 8
APPEND_IDLE_US = 100
POSTCARD_IDLE_US = 150
HOPS = 5
SLOT_SIZE = 16

APP_MAC = "02:00:0a:00:00:65"
APP_IP = "10.0.0.101"
DSCP, ECN, TTL, PKEY = 26, 2, 61, 0xFFFF

OP_WRITE_ONLY, OP_FETCH_ADD, OP_ATOMIC_ACK = 0x0A, 0x14, 0x12


def mac_bytes(mac):
    return bytes(int(x, 16) for x in mac.split(":"))


def ip_int(ip):
    return struct.unpack("!I", bytes(int(x) for x in ip.split(".")))[0]


def le(*words):
    return b"".join(struct.pack("<I", w & 0xFFFFFFFF) for w in words)


def key_le(key):
    return struct.pack("<I", key)


def crc(data):
    return zlib.crc32(data) & 0xFFFFFFFF


def slot_hash(key, n):
    return crc(key_le(key) + bytes([n]))


def fmix32(h):
    """Cache index mixing of the postcard cache (MurmurHash3 finaliser), only to provoke evictions on purpose."""
    h &= 0xFFFFFFFF
    h ^= h >> 16
    h = (h * 0x85EBCA6B) & 0xFFFFFFFF
    h ^= h >> 13
    h = (h * 0xC2B2AE35) & 0xFFFFFFFF
    h ^= h >> 16
    return h


def cache_index(key):
    return fmix32(key) & (POSTCARD_CACHE - 1)


class Qp:
    """One RC QP: PSN, the held newest frame, AckReq every REQUEST_INTERVAL-th packet and when going idle."""

    def __init__(self, name, col, local_qpn, qpn, rkey, base, length, start_psn, sport=None):
        self.name, self.col = name, col
        self.local_qpn, self.qpn, self.rkey, self.base, self.length = local_qpn, qpn, rkey, base, length
        self.start_psn = start_psn
        self.psn = start_psn
        self.sport = sport if sport is not None else 0xC000 | (local_qpn & 0x3FFF)
        self.held = None
        self.held_since = 0
        self.held_ackreq = False
        self.since_ackreq = 0
        self.out = []
        self.responses = None       # where the collector's ATOMIC ACKs go, with the count of them
        self.counts = None

    def send(self, op, va, data, now, original=None):
        """Builds and holds a request; original is the value an ATOMIC ACK will return for a FETCH_ADD."""
        self.release(False, now)
        self.since_ackreq += 1
        self.held = (op, va, data, self.psn, original)
        self.held_since = now
        self.held_ackreq = self.since_ackreq >= REQUEST_INTERVAL
        if self.held_ackreq:
            # Every REQUEST_INTERVAL-th packet of the QP: an AckReq for going idle does not restart the count.
            self.since_ackreq = 0
        psn = self.psn
        self.psn = (self.psn + 1) & 0xFFFFFF
        return psn

    def release(self, idle, now, answered=True):
        if self.held is None:
            return
        ackreq = self.held_ackreq or idle
        op, va, data, psn, original = self.held
        self.held = None
        self.out.append((now, build_request(self, op, va, data, psn, ackreq)))
        if op == OP_FETCH_ADD and answered:
            # The responder answers what it received: the request left now.
            self.responses.append((now + 500, build_atomic_ack(self, psn, original)))
            self.counts["atomicAcks"] += 1

    def poll(self, now):
        if self.held is not None and now - self.held_since >= HOLD_NS:
            self.release(True, now)

    def due(self):
        return None if self.held is None else self.held_since + HOLD_NS


def icrc(frame):
    """ICRC of an Ethernet/IPv4/UDP/BTH frame (rocev2-reference.md): CRC32 over 8 bytes of 0xFF, the IPv4 header
    with TOS, TTL and checksum masked to 1s, the UDP header with its checksum masked, the BTH with the
    reserved FECN/BECN/resv6 byte masked, then the rest, sent little-endian."""
    ip = bytearray(frame[14:])
    ip[1] = 0xFF
    ip[8] = 0xFF
    ip[10:12] = b"\xff\xff"
    ip[26:28] = b"\xff\xff"
    ip[32] = 0xFF
    return struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(ip[:-4])) & 0xFFFFFFFF)


CHECKED_WITH_SCAPY = [0]


def build_request(qp, op, va, data, psn, ackreq):
    col = qp.col
    if op == OP_WRITE_ONLY:
        pad = -len(data) % 4
        ext = struct.pack("!QII", va, qp.rkey, len(data)) + data + b"\x00" * pad
    else:
        pad = 0
        ext = struct.pack("!QIQQ", va, qp.rkey, data, 0)

    def frame(icrc_value):
        return bytes(Ether(src=APP_MAC, dst=col["mac"])
                     / IP(src=APP_IP, dst=col["ip"], tos=(DSCP << 2) | ECN, ttl=TTL, id=psn & 0xFFFF, flags="DF")
                     / UDP(sport=qp.sport, dport=4791, chksum=0)
                     / BTH(opcode=op, solicited=0, migreq=1, padcount=pad, version=0, pkey=PKEY, dqpn=qp.qpn,
                           ackreq=1 if ackreq else 0, psn=psn, icrc=icrc_value)
                     / Raw(ext))

    # scapy's ICRC computation costs ~2 ms a frame: let scapy compute it for a sample of frames and check the
    # fast path against it; every frame still has its headers built by scapy.
    fast = frame(0)
    fast = fast[:-4] + icrc(fast)
    CHECKED_WITH_SCAPY[0] += 1
    if CHECKED_WITH_SCAPY[0] <= 200 or CHECKED_WITH_SCAPY[0] % 20 == 0:
        reference = frame(None)
        if reference != fast:
            raise SystemExit("ICRC model disagrees with scapy on %s PSN %d" % (qp.name, psn))
    return fast


def ipv4_checksum(header):
    total = sum(struct.unpack("!10H", header))
    while total >> 16:
        total = (total & 0xFFFF) + (total >> 16)
    return ~total & 0xFFFF


def eth_ipv4_udp(src_mac, dst_mac, src_ip, dst_ip, sport, dport, payload, tos=0, ttl=64, ident=0, flags=0x4000):
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, tos, 28 + len(payload), ident, flags, ttl, 17, 0,
                               bytes(int(x) for x in src_ip.split(".")), bytes(int(x) for x in dst_ip.split("."))))
    ip[10:12] = struct.pack("!H", ipv4_checksum(bytes(ip)))
    udp = struct.pack("!HHHH", sport, dport, 8 + len(payload), 0)
    return mac_bytes(dst_mac) + mac_bytes(src_mac) + b"\x08\x00" + bytes(ip) + udp + payload


def build_atomic_ack(qp, psn, original):
    col = qp.col
    bth = struct.pack("!BBHII", OP_ATOMIC_ACK, 0, 0xFFFF, qp.local_qpn, psn)
    ext = struct.pack("!BBH", 0x1F, 0, 1) + struct.pack("!Q", original)  # AETH (syndrome, MSN) + AtomicAckETH
    frame = eth_ipv4_udp(col["mac"], APP_MAC, col["ip"], APP_IP, 49152, 4791, bth + ext + b"\0\0\0\0")
    return frame[:-4] + icrc(frame)


class AppendList:
    def __init__(self, list_id, qp, batch, reference):
        self.list_id, self.qp, self.batch, self.reference = list_id, qp, batch, reference
        self.entries = []
        self.last_entry = 0
        self.head = 0
        self.sequence = 1
        if reference:
            self.slots = qp.length // 4
        else:
            self.record = 4 * batch + 8
            self.records = qp.length // self.record

    def add(self, data, now):
        self.entries.append(data)
        self.last_entry = now
        if len(self.entries) == self.batch:
            self.flush(now)

    def poll(self, now):
        if self.entries and now - self.last_entry >= APPEND_IDLE_US * 1000:
            self.flush(now)

    def due(self):
        return self.last_entry + APPEND_IDLE_US * 1000 if self.entries else None

    def flush(self, now):
        if not self.entries:
            return
        entries, self.entries = self.entries, []
        if self.reference:
            slot = 0 if self.head + len(entries) > self.slots else self.head
            self.head = slot + len(entries)
            self.qp.send(OP_WRITE_ONLY, self.qp.base + 4 * slot, le(*entries), now)
        else:
            words = entries + [0] * (self.batch - len(entries)) + [len(entries), self.sequence]
            va = self.qp.base + ((self.sequence - 1) % self.records) * self.record
            self.sequence += 1
            self.qp.send(OP_WRITE_ONLY, va, le(*words), now)


class Postcards:
    def __init__(self, qp):
        self.qp = qp
        self.slots = qp.length // 32
        self.cache = {}                 # cache index -> [key, {hop: data} reported, updated, {hop: data} carried]
        self.lru = OrderedDict()        # cache index, oldest update first
        self.written = {}               # cache index -> (key, {hop: data}): its last record, until another flow comes

    def report(self, key, hop, data, now):
        entry = cache_index(key)
        if entry in self.cache and self.cache[entry][0] != key:
            self.emit(entry, now)
        if entry not in self.cache:
            # A flow's later postcards join the record it last wrote from this entry (layouts.md, postcard records).
            last = self.written.pop(entry, None)
            self.cache[entry] = [key, {}, now, dict(last[1]) if last and last[0] == key else {}]
        e = self.cache[entry]
        e[1][hop] = data
        e[2] = now
        self.lru.pop(entry, None)
        self.lru[entry] = True
        if len(e[1]) == HOPS:
            self.emit(entry, now)

    def emit(self, entry, now):
        key, reported, _, carried = self.cache.pop(entry)
        del self.lru[entry]
        hops = {**carried, **reported}
        self.written[entry] = (key, hops)
        mask = sum(1 << (h - 1) for h in hops)
        record = le(key, mask, *[hops.get(h, 0) for h in range(1, HOPS + 1)])
        va = self.qp.base + (slot_hash(key, 0) & (self.slots - 1)) * 32
        self.qp.send(OP_WRITE_ONLY, va, record, now)

    def poll(self, now):
        while self.lru:
            entry = next(iter(self.lru))
            if now - self.cache[entry][2] < POSTCARD_IDLE_US * 1000:
                break
            self.emit(entry, now)

    def flush(self, now):
        while self.lru:
            self.emit(next(iter(self.lru)), now)

    def due(self):
        return self.cache[next(iter(self.lru))][2] + POSTCARD_IDLE_US * 1000 if self.lru else None


def report_frame(src_ip, dst_ip, form, opcode, seqnum, flags, sub):
    dta = bytes([opcode]) + (bytes([seqnum, flags]) if form == 3 else bytes([flags])) + sub
    raw = eth_ipv4_udp("02:00:0a:01:00:01", "02:00:0a:00:00:33", src_ip, dst_ip, 12345, DTA_PORT, dta,
                       ident=7, flags=0)
    return raw + b"\x00" * max(0, 60 - len(raw))


def write_pcap(path, records):
    with open(path, "wb") as f:
        f.write(struct.pack("<IHHiIII", 0xA1B23C4D, 2, 4, 0, 0, 65535, 1))
        for ts, frame in records:
            f.write(struct.pack("<IIII", ts // 1_000_000_000, ts % 1_000_000_000, len(frame), len(frame)))
            f.write(frame)


def config_yaml(batch, qps, lists):
    kw, ki, pc, kwb = qps["kw"], qps["ki"], qps["pc"], qps["kwb"]

    def region(qp):
        return ("localQpn: 0x%x, qpn: 0x%x, rkey: 0x%x, address: 0x%x, length: %d, startPsn: 0x%x"
                % (qp.local_qpn, qp.qpn, qp.rkey, qp.base, qp.length, qp.start_psn))

    list_lines = "".join(
        "      - {id: %d, %s, layout: %s}\n" % (l.list_id, region(l.qp), "reference" if l.reference else "sequenced")
        for l in lists)
    return f"""# generated by dta_model.py
translator: {{mac: "{APP_MAC}", ip: {APP_IP}, dscp: {DSCP}, ecn: {ECN}, ttl: {TTL}, pKey: 0x{PKEY:x}}}
reports: {{udpPort: {DTA_PORT}, baseHeader: "auto"}}
redundancy: {{max: 4}}
append: {{batchSize: {batch}, idleFlushMicros: {APPEND_IDLE_US}}}
postcards: {{hops: {HOPS}, idleFlushMicros: {POSTCARD_IDLE_US}, cacheEntries: {POSTCARD_CACHE}}}
acks: {{requestInterval: {REQUEST_INTERVAL}, timeoutMicros: 3000000000}}
collectors:
  - name: a
    mac: "{kw.col['mac']}"
    ip: {kw.col['ip']}
    keyWrite: {{{region(kw)}, slotSize: {SLOT_SIZE}}}
    keyIncrement: {{{region(ki)}, maxOutstandingAtomics: 255, atomicQueueSize: 64}}
    postcards: {{{region(pc)}}}
    lists:
{list_lines}  - name: b
    mac: "{kwb.col['mac']}"
    ip: {kwb.col['ip']}
    keyWrite: {{{region(kwb)}, slotSize: {SLOT_SIZE}, udpSourcePort: {kwb.sport}}}
"""


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--reports", type=int, default=4000)
    ap.add_argument("--batch", type=int, default=4)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    col_a = {"mac": "02:00:0a:00:00:33", "ip": "10.0.0.51"}
    col_b = {"mac": "02:00:0a:00:00:34", "ip": "10.0.0.52"}
    qps = {
        "kw": Qp("a/keyWrite", col_a, 0x539, 0x456, 0x1234, 0x7F0000000000, 4096, 0xFFFF00),
        "ki": Qp("a/keyIncrement", col_a, 0x53A, 0x457, 0x1235, 0x7F0000100000, 2048, 0xFFFFF0),
        "pc": Qp("a/postcards", col_a, 0x53B, 0x458, 0x1236, 0x7F0000200000, 8192, 0xFFFFFA),
        "l0": Qp("a/list0", col_a, 0x53C, 0x459, 0x1237, 0x7F0000300000, 24 * a.batch, 0xFFFFFE),
        "l1": Qp("a/list1", col_a, 0x53D, 0x45A, 0x1238, 0x7F0000400000, 5 * (4 * a.batch + 8), 0xFFFFFD),
        "l7": Qp("a/list7", col_a, 0x53E, 0x45B, 0x1239, 0x7F0000500000, 4096, 0),
        "kwb": Qp("b/keyWrite", col_b, 0x540, 0x460, 0x2234, 0x7F0000600000, 1024, 0xFFFFFF, sport=0x1234),
    }
    lists = [AppendList(0, qps["l0"], a.batch, True), AppendList(1, qps["l1"], a.batch, False),
             AppendList(7, qps["l7"], a.batch, False)]
    postcards = Postcards(qps["pc"])
    senders = list(qps.values())

    reporters = ["10.1.0.%d" % i for i in range(1, 5)]
    seq = {r: rnd.randrange(256) for r in reporters}
    flows = []                      # postcard flows in progress: [key, [hops still to send]]
    reports, responses = [], []
    counts = {"reports": 0, "dropped": 0, "twoByte": 0, "keyWrite": 0, "keyIncrement": 0, "append": 0,
              "postcard": 0, "evictionsProvoked": 0, "atomicAcks": 0}
    now = 1_000_000_000_000
    for qp in senders:
        qp.responses, qp.counts = responses, counts

    def run_timers(t):
        for qp in senders:
            qp.poll(t)
        for lst in lists:
            lst.poll(t)
        postcards.poll(t)

    def poll(t):
        # every timer due by t at its own time, in time order
        while True:
            due = [d for d in [x.due() for x in senders + lists + [postcards]] if d is not None and d <= t]
            if not due:
                break
            run_timers(min(due))
        run_timers(t)

    for i in range(a.reports):
        now += rnd.choice([1, 1, 1, 2, 2, 3]) * 1000 if rnd.random() > 0.01 else rnd.randint(15, 400) * 1000
        poll(now)
        reporter = rnd.choice(reporters)
        form = 3 if rnd.random() < 0.5 else 2
        flags, seqnum = 0, rnd.randrange(256)
        if form == 3:
            if rnd.random() < 0.5:
                seq[reporter] = (seq[reporter] + 1) & 0xFF
                flags |= 0x40
                seqnum = seq[reporter]
            if rnd.random() < 0.3:
                flags |= 0x80
        else:
            counts["twoByte"] += 1
        dst = col_a["ip"]
        kind = rnd.random()
        if kind < 0.20 or (kind < 0.25):
            qp = qps["kw"] if kind < 0.20 else qps["kwb"]
            dst = qp.col["ip"]
            n = rnd.randint(1, 4)
            key = rnd.getrandbits(32)
            data = rnd.randbytes(SLOT_SIZE - 4)
            opcode, sub = 0x01, struct.pack("!BI", n, key) + data
            if rnd.random() < 0.01:
                sub = struct.pack("!BI", rnd.choice([0, 5]), key) + data
                counts["dropped"] += 1
            else:
                counts["keyWrite"] += 1
                slots = qp.length // SLOT_SIZE
                payload = le(crc(key_le(key))) + data
                for c in range(n):
                    qp.send(OP_WRITE_ONLY, qp.base + (slot_hash(key, c) & (slots - 1)) * SLOT_SIZE, payload, now)
        elif kind < 0.45:
            qp = qps["ki"]
            n = rnd.randint(1, 4)
            key = rnd.getrandbits(32)
            counter = rnd.getrandbits(64) if rnd.random() < 0.3 else rnd.randint(1, 1000)
            opcode, sub = 0x03, struct.pack("!BIQ", n, key, counter)
            counts["keyIncrement"] += 1
            slots = qp.length // 8
            for c in range(n):
                qp.send(OP_FETCH_ADD, qp.base + (slot_hash(key, c) & (slots - 1)) * 8, counter, now,
                        rnd.getrandbits(64))
        elif kind < 0.75:
            lst = rnd.choice(lists)
            value = rnd.getrandbits(32)
            opcode, sub = 0x02, struct.pack("!II", lst.list_id, value)
            counts["append"] += 1
            lst.add(value, now)
        elif kind < 0.995:
            if not flows or (len(flows) < 6 and rnd.random() < 0.3):
                key = rnd.getrandbits(32)
                if flows and rnd.random() < 0.15:
                    # a key sharing a cache entry with a flow in flight evicts it
                    target = cache_index(rnd.choice(flows)[0])
                    while cache_index(key) != target or any(f[0] == key for f in flows):
                        key = rnd.getrandbits(32)
                    counts["evictionsProvoked"] += 1
                hops = list(range(1, HOPS + 1))
                rnd.shuffle(hops)
                if rnd.random() < 0.2:
                    hops = hops[:rnd.randint(1, HOPS - 1)]
                flows.append([key, hops])
            flow = rnd.choice(flows)
            hop = flow[1].pop()
            if not flow[1]:
                flows.remove(flow)
            data = rnd.getrandbits(32)
            if rnd.random() < 0.01:
                hop = rnd.choice([0, HOPS + 1])
                counts["dropped"] += 1
            else:
                counts["postcard"] += 1
                postcards.report(flow[0], hop, data, now)
            opcode, sub = 0x04, struct.pack("!IBI", flow[0], hop, data)
        else:
            opcode, sub = rnd.choice([0x09, 0x7F]), b"\x00" * 8
            if flags & 0x40:
                # an unknown opcode cannot be parsed, so it is never sequence-tracked: keep the reporter in order
                flags &= ~0x40
                seq[reporter] = (seq[reporter] - 1) & 0xFF
            counts["dropped"] += 1
        reports.append((now, report_frame(reporter, dst, form, opcode, seqnum, flags, sub)))
        counts["reports"] += 1

    # end of input: the replay flushes at the time of the last frame it read
    end = max(now, responses[-1][0] if responses else now)
    for lst in lists:
        lst.flush(end)
    postcards.flush(end)
    for qp in senders:
        qp.release(True, end, answered=False)

    os.makedirs(a.out, exist_ok=True)
    write_pcap(os.path.join(a.out, "reports.pcap"), reports)
    write_pcap(os.path.join(a.out, "responses.pcap"), sorted(responses, key=lambda r: r[0]))
    expected = sorted((f for qp in senders for f in qp.out), key=lambda f: f[0])
    write_pcap(os.path.join(a.out, "expected.pcap"), expected)
    with open(os.path.join(a.out, "config.yaml"), "w") as f:
        f.write(config_yaml(a.batch, qps, lists))
    counts["expectedFrames"] = len(expected)
    counts["perQp"] = {qp.name: len(qp.out) for qp in senders}
    counts["finalPsn"] = {qp.name: qp.psn for qp in senders}
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(counts, f, indent=1)
    print(json.dumps(counts))


if __name__ == "__main__":
    main()
