#!/usr/bin/python3
"""Independent model of the translator's Sketch-Merge (docs/sketch.md) for the engine's acceptance test.

Given a seed, writes into an output directory:
  config.yaml     the translator configuration the model assumes (four sketches on two collectors),
  reports.pcap    Sketch-Merge column reports from simulated switches: interleaved across switches, sketches and
                  overlapping epochs, with duplicates, gaps (the switch rewinds a little later, as a NACK would make
                  it), lost tails (the switch resends them when a timer NACK reaches it), missing switches (epoch
                  timeout), epochs that take the area of an open older epoch, stale and malformed columns, counters
                  near the saturation bounds, both base-header forms,
  expected.pcap   the frames the translator must emit in an open-loop replay: RoCEv2 WRITEs per sketch QP (built
                  with scapy through dta_model.py) and sketch NACKs to the switches,
  summary.json    counters the Java side compares with the engine's.

NACK retries (docs/sketch.md): a gap NACK arms a timer per (epoch, switch); if no column of the switch arrives for
nackRetryMicros the NACK is sent again for the switch's next expected column, the interval doubling per retry, up
to nackRetries times, then the gap is given up. Progress restarts the interval and the count; the gap filling (the
switch's next column passing every column seen from it) or the epoch closing ends the retries. The simulated
switches rewind on their own schedule, so some retries go out before the rewind arrives.

Tail NACKs: the same timer watches every switch from its first merged column (or once its gap fills) until it has
sent its last column. It looks at the multiples of nackRetryMicros of the clock, at least one interval after the
watch began or after its previous look; a look that finds the switch's next expected column where the previous one
left it (no progress) NACKs the switch from that column, and from then on the tail is a gap ending at the last
column. Some simulated switches lose their last columns and wait: a timer NACK that reaches them (a quarter are
lost) makes them resend from the NACKed column, so their epochs complete unless every NACK is lost or a newer epoch
takes the area first. A retry is sent here always (the replay's output never refuses a frame).

The model keeps the collector memory the WRITEs produce and checks, for every epoch still in memory, that the
cells equal the element-wise sum (Count-Min saturating at 2^32-1, Count sketch saturating at the int32 bounds) or
max (HyperLogLog) of what the switches contributed, and that complete epochs hold every switch's whole sketch.
Like dta_model.py it is written from the specification and imports nothing from the Java code.
"""
import argparse
import json
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dta_model as m  # noqa: E402  (Qp: PSN, held frame, AckReq; frame builders; pcap writer)

NACK_REARM_NS = 100_000
NACK_PORT = 40044
SWITCH_MAC = "02:00:0a:01:00:01"
TYPES = {"count-min": 1, "count-sketch": 2, "hyperloglog": 3}
U32 = 0xFFFFFFFF


def signed(v):
    return v - (1 << 32) if v & 0x80000000 else v


class Area:
    def __init__(self, epoch, switches, rows, cols, now):
        self.epoch, self.state, self.opened = epoch, 1, now
        self.cells = [0] * (rows * cols)
        self.next = [0] * switches
        self.armed = [True] * switches
        self.nack_t = [0] * switches
        self.written = 0
        # NACK retries: the gap's end (one past the highest column seen per switch, or cols once its tail was
        # NACKed), the timer's state ("off", "gap": retry the NACK when due, "tail": look for progress when due),
        # retries sent, next due time, next expected column at the tail watch's previous look
        self.seen_end = [0] * switches
        self.retry = ["off"] * switches
        self.retries = [0] * switches
        self.due = [0] * switches
        self.mark = [0] * switches


class SketchModel:
    def __init__(self, collector_ip, sid, kind, rows, cols, switches, batch, epochs, timeout_us, retry_us, retries,
                 qp, counts, memory, switch_ip):
        self.collector_ip, self.sid, self.kind = collector_ip, sid, kind
        self.rows, self.cols, self.switches, self.batch, self.epochs = rows, cols, switches, batch, epochs
        self.timeout_ns, self.qp, self.counts, self.memory = timeout_us * 1000, qp, counts, memory
        # retry_us None: the key is left out of the configuration and defaults to epochTimeoutMicros / 32
        self.retry_us = retry_us
        self.retry_ns = (retry_us if retry_us is not None else max(1, timeout_us // 32)) * 1000
        self.max_retries = retries
        self.switch_ip = switch_ip
        self.nacks = []
        # the simulated switches hear the timer's NACKs that are not lost: on_nack(sw, epoch, column)
        self.on_nack = lambda sw, epoch, col: None
        self.area_bytes = 64 + rows * cols * 4
        self.areas = [None] * epochs

    def write(self, offset, data, now):
        self.qp.send(m.OP_WRITE_ONLY, self.qp.base + offset, data, now)
        self.memory[offset:offset + len(data)] = data

    def header(self, a, now):
        ar = self.areas[a]
        bitmap = bytearray(32)
        contributors = 0
        for s in range(self.switches):
            if ar.next[s] == self.cols:
                contributors += 1
                bitmap[s // 8] |= 1 << (s % 8)
        completed = min(ar.next)
        data = struct.pack("<IBBHIHHI", ar.epoch, ar.state, TYPES[self.kind], self.rows, self.cols, self.switches,
                           contributors, completed) + bytes(12) + bytes(bitmap)
        self.write(a * self.area_bytes, data, now)

    def run(self, a, first, n, now):
        ar = self.areas[a]
        cells = ar.cells[first * self.rows:(first + n) * self.rows]
        if self.kind == "count-sketch":
            # exact sums, clamped to int32 when written (saturating step by step would depend on arrival order)
            clamped = [max(-0x80000000, min(0x7FFFFFFF, c)) for c in cells]
            self.counts["saturated"] += sum(1 for c, k in zip(cells, clamped) if c != k)
            cells = clamped
        self.write(a * self.area_bytes + 64 + first * self.rows * 4, struct.pack("<%dI" % len(cells),
                   *[c & U32 for c in cells]), now)
        self.counts["columnWrites"] += 1

    def open(self, a, epoch, now):
        self.areas[a] = Area(epoch, self.switches, self.rows, self.cols, now)
        self.counts["opened"] += 1
        self.header(a, now)

    def close(self, a, why, now):
        ar = self.areas[a]
        while ar.written < self.cols:
            n = min(self.batch, self.cols - ar.written)
            self.run(a, ar.written, n, now)
            ar.written += n
        ar.state = 2 if why == "completed" else 3
        ar.retry = ["off"] * self.switches
        self.counts[why] += 1
        self.header(a, now)

    def merge(self, ar, col, values):
        for r, v in enumerate(values):
            i = col * self.rows + r
            if self.kind == "count-min":
                total = ar.cells[i] + v
                if total > U32:
                    total = U32
                    self.counts["saturated"] += 1
            elif self.kind == "count-sketch":
                total = ar.cells[i] + signed(v)
            else:
                total = max(ar.cells[i], v)
            ar.cells[i] = total

    def column(self, sw, epoch, col, rows, values, now):
        """Returns 'merged', a drop reason, or ('nack', column)."""
        if rows != self.rows:
            return "badRows"
        if sw >= self.switches:
            return "badSwitch"
        if col >= self.cols:
            return "badColumn"
        a = epoch % self.epochs
        ar = self.areas[a]
        if ar is not None and ar.epoch > epoch:
            return "staleEpoch"
        if ar is None or ar.epoch < epoch:
            if ar is not None and ar.state == 1:
                self.close(a, "superseded", now)
            self.open(a, epoch, now)
            ar = self.areas[a]
        elif ar.state != 1:
            return "epochClosed"
        if col < ar.next[sw]:
            return "duplicate"
        if col > ar.next[sw]:
            ar.seen_end[sw] = max(ar.seen_end[sw], col + 1)
            if ar.armed[sw] or now - ar.nack_t[sw] >= NACK_REARM_NS:
                ar.armed[sw] = False
                ar.nack_t[sw] = now
                if self.max_retries > 0:
                    ar.retry[sw], ar.retries[sw], ar.due[sw] = "gap", 0, now + self.retry_ns
                return ("nack", ar.next[sw])
            return "gap"
        self.merge(ar, col, values)
        ar.next[sw] += 1
        ar.armed[sw] = True
        if ar.retry[sw] == "gap":
            if ar.next[sw] >= ar.seen_end[sw]:
                if ar.next[sw] < self.cols:
                    self.watch_tail(ar, sw, now)
                else:
                    ar.retry[sw] = "off"
            else:
                ar.retries[sw], ar.due[sw] = 0, now + self.retry_ns
        elif col == 0 and ar.retry[sw] == "off" and self.max_retries > 0 and self.cols > 1:
            self.watch_tail(ar, sw, now)
        completed = min(ar.next)
        while completed - ar.written >= self.batch:
            self.run(a, ar.written, self.batch, now)
            ar.written += self.batch
        if completed == self.cols:
            self.close(a, "completed", now)
        return "merged"

    def next_look(self, now):
        """The first multiple of the interval at least one interval after now."""
        at = now + self.retry_ns
        return at if at % self.retry_ns == 0 else at - at % self.retry_ns + self.retry_ns

    def watch_tail(self, ar, sw, now):
        ar.retry[sw], ar.retries[sw], ar.mark[sw], ar.due[sw] = "tail", 0, ar.next[sw], self.next_look(now)

    def timer_nack(self, ar, sw, now):
        self.nacks.append((now, nack_frame(self.switch_ip(self, sw), self.sid, sw, ar.epoch, ar.next[sw])))
        self.counts["nacks"] += 1
        ar.armed[sw] = False
        ar.nack_t[sw] = now
        self.on_nack(sw, ar.epoch, ar.next[sw])

    def poll(self, now):
        due = [a for a in range(self.epochs) if self.areas[a] is not None and self.areas[a].state == 1
               and now - self.areas[a].opened >= self.timeout_ns]
        for a in sorted(due, key=lambda x: self.areas[x].epoch):
            self.close(a, "timedOut", now)
        for a in range(self.epochs):
            ar = self.areas[a]
            if ar is None or ar.state != 1:
                continue
            for sw in range(self.switches):
                if ar.retry[sw] == "off" or now < ar.due[sw]:
                    continue
                if ar.retry[sw] == "tail":
                    if ar.next[sw] == self.cols:
                        ar.retry[sw] = "off"
                    elif ar.next[sw] != ar.mark[sw]:
                        ar.mark[sw], ar.due[sw] = ar.next[sw], self.next_look(now)
                    else:
                        self.counts["tailNacks"] += 1
                        ar.seen_end[sw], ar.retry[sw], ar.retries[sw], ar.due[sw] = self.cols, "gap", 0, \
                            now + self.retry_ns
                        self.timer_nack(ar, sw, now)
                    continue
                if ar.retries[sw] >= self.max_retries:
                    ar.retry[sw] = "off"
                    self.counts["gapsAbandoned"] += 1
                    continue
                self.counts["nackRetries"] += 1
                ar.retries[sw] += 1
                ar.due[sw] = now + (self.retry_ns << ar.retries[sw])
                self.timer_nack(ar, sw, now)

    def due(self):
        """The earliest epoch timeout or retry timer, or None."""
        times = []
        for ar in self.areas:
            if ar is None or ar.state != 1:
                continue
            times.append(ar.opened + self.timeout_ns)
            times += [ar.due[sw] for sw in range(self.switches) if ar.retry[sw] != "off"]
        return min(times) if times else None

    def flush(self, now):
        for a in sorted((a for a in range(self.epochs) if self.areas[a] is not None and self.areas[a].state == 1),
                        key=lambda x: self.areas[x].epoch):
            self.close(a, "flushed", now)


def nack_frame(switch_ip, sid, sw, epoch, col):
    payload = bytes([0x05, 0x00, 0x80]) + struct.pack("!HHIHH", sid, sw, epoch, col, 0)
    raw = m.eth_ipv4_udp(m.APP_MAC, SWITCH_MAC, m.APP_IP, switch_ip, m.DTA_PORT, NACK_PORT, payload)
    return raw + b"\x00" * max(0, 60 - len(raw))


def column_frame(switch_ip, collector_ip, form, sid, sw, epoch, col, rows, values, flags):
    sub = struct.pack("!HHIHBB", sid, sw, epoch, col, rows, 0) + struct.pack("!%dI" % len(values), *values)
    return m.report_frame(switch_ip, collector_ip, form, 0x05, 0, flags, sub)


class Stream:
    """One switch sending one epoch of one sketch, column by column."""

    def __init__(self, sk, epoch, sw, values, stop_at, tail_from=None):
        self.sk, self.epoch, self.sw, self.values, self.stop_at = sk, epoch, sw, values, stop_at
        self.next = 0
        self.rewind_in, self.rewind_to = 0, None
        # columns from tail_from on are lost on the first pass; then the switch waits for a NACK
        self.tail_from, self.waiting, self.resumed = tail_from, False, False

    def done(self):
        return self.next >= self.stop_at and self.rewind_to is None and self.tail_from is None


def switch_sketch(rnd, sk):
    """A switch's whole sketch: small counts mostly, some near the saturation bounds."""
    cols = []
    for _ in range(sk.cols):
        col = []
        for _ in range(sk.rows):
            x = rnd.random()
            if sk.kind == "count-min":
                v = rnd.randint(0xA0000000, U32) if x < 0.25 else rnd.randint(0, 2000)
            elif sk.kind == "count-sketch":
                v = (rnd.choice([1, -1]) * rnd.randint(0x50000000, 0x7FFFFFFF) if x < 0.25
                     else rnd.randint(-2000, 2000)) & U32
            else:
                v = rnd.randint(0, 33)
            col.append(v)
        cols.append(col)
    return cols


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--epochs", type=int, default=6, help="epochs per sketch")
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    col_a = {"mac": "02:00:0a:00:00:33", "ip": "10.0.0.51"}
    col_b = {"mac": "02:00:0a:00:00:34", "ip": "10.0.0.52"}
    counts = {k: 0 for k in ("reports", "merged", "badRows", "badSwitch", "badColumn", "staleEpoch", "epochClosed",
                             "duplicate", "gap", "nacks", "noRoute", "columnWrites", "opened", "completed",
                             "timedOut", "superseded", "flushed", "saturated", "nackRetries",
                             "gapsAbandoned", "tailNacks", "tailsLost", "tailsResumed",
                             "tailsRecovered")}
    # (collector, id, type, rows, columns, switches, batchColumns, epochs, epochTimeoutMicros, nackRetryMicros
    #  (None: default), nackRetries, localQpn, start PSN)
    specs = [
        (col_a, 1, "count-min", 3, 16, 3, 4, 2, 2000, 20, 3, 0x541, 0xFFFFF0),
        (col_a, 2, "count-sketch", 2, 8, 2, 2, 3, 1500, None, 4, 0x542, 0),
        (col_a, 3, "hyperloglog", 1, 32, 4, 8, 2, 3000, 5, 0, 0x543, 0xFFFFFE),
        (col_b, 1, "count-min", 1, 4, 1, 4, 1, 800, 4, 2, 0x544, 0x10),
    ]
    sketches, memories = [], []

    def switch_ip(sk, sw):
        return "10.2.%d.%d" % (sketches.index(sk), sw + 1)

    for i, (col, sid, kind, rows, cols, switches, batch, epochs, timeout, retry, retries, lqpn, psn) in \
            enumerate(specs):
        length = epochs * (64 + rows * cols * 4)
        qp = m.Qp("%s/sketch%d" % (col["ip"], sid), col, lqpn, 0x470 + i, 0x3300 + i, 0x7F0000800000 + i * 0x10000,
                  length, psn)
        memory = bytearray(length)
        memories.append(memory)
        sketches.append(SketchModel(col["ip"], sid, kind, rows, cols, switches, batch, epochs, timeout, retry,
                                    retries, qp, counts, memory, switch_ip))
    senders = [sk.qp for sk in sketches]
    by_route = {(sk.collector_ip, sk.sid): sk for sk in sketches}

    # What every switch contributed per (sketch, epoch): to check collector memory at the end.
    contributed = {}
    reports, nacks = [], []
    now = 1_000_000_000_000

    polled = [None]

    def run_timers(t):
        if polled[0] == t:
            return
        polled[0] = t
        for qp in senders:
            qp.poll(t)
        for sk in sketches:
            sk.poll(t)

    def poll(t):
        # every timer due by t at its own time, in time order, as a continuously polled engine runs it
        while True:
            due = [d for d in [x.due() for x in senders + sketches] if d is not None and d <= t
                   and d != polled[0]]
            if not due:
                break
            run_timers(min(due))
        run_timers(t)

    def send(switch_ip, collector_ip, sid, sw, epoch, col, rows, values):
        # The replay runs every timer due before a frame at its own time, then the frame: so does the model (a lost
        # column is time passing with no column).
        poll(now)
        form = 3 if rnd.random() < 0.7 else 2
        flags = rnd.choice([0, 0, 0x20, 0x80]) if form == 3 else 0
        reports.append((now, column_frame(switch_ip, collector_ip, form, sid, sw, epoch, col, rows, values, flags)))
        counts["reports"] += 1
        sk = by_route.get((collector_ip, sid))
        if sk is None:
            counts["noRoute"] += 1
            return
        outcome = sk.column(sw, epoch, col, rows, values, now)
        if outcome == "merged":
            counts["merged"] += 1
            contributed.setdefault((id(sk), epoch), {})[(sw, col)] = values
        elif isinstance(outcome, tuple):
            counts["gap"] += 1
            counts["nacks"] += 1
            nacks.append((now, nack_frame(switch_ip, sid, sw, epoch, outcome[1])))
        else:
            counts[outcome] += 1

    # Per sketch: the epochs to run (mostly consecutive, sometimes a jump by the ring size over an open epoch).
    plans = {}
    for sk in sketches:
        e = rnd.randint(0, 5000)
        plan = []
        for _ in range(a.epochs):
            plan.append(e)
            e += sk.epochs if rnd.random() < 0.15 else 1
        plans[id(sk)] = plan
    streams = []
    started = {id(sk): 0 for sk in sketches}

    def start_epoch(sk):
        epoch = plans[id(sk)][started[id(sk)]]
        started[id(sk)] += 1
        last = started[id(sk)] == len(plans[id(sk)])
        missing = rnd.randrange(sk.switches) if rnd.random() < (0.6 if last else 0.25) else None
        for sw in range(sk.switches):
            stop = sk.cols if sw != missing else rnd.randint(0, sk.cols - 1)
            tail_from = None
            if sw != missing and sk.cols > 1 and rnd.random() < 0.25:
                tail_from = sk.cols - rnd.randint(1, min(3, sk.cols - 1))
                counts["tailsLost"] += 1
            streams.append(Stream(sk, epoch, sw, switch_sketch(rnd, sk), stop, tail_from))

    def heard(sk, sw, epoch, col):
        """A timer NACK reaches a switch waiting after it lost its last columns (unless the NACK is lost)."""
        for t in streams:
            if t.waiting and t.sk is sk and t.sw == sw and t.epoch == epoch and rnd.random() >= 0.25:
                t.waiting, t.tail_from, t.next, t.resumed = False, None, col, True
                counts["tailsResumed"] += 1

    for sk in sketches:
        sk.on_nack = lambda sw, epoch, col, sk=sk: heard(sk, sw, epoch, col)

    for sk in sketches:
        start_epoch(sk)

    while streams:
        now += rnd.choice([1, 1, 1, 2, 2, 3]) * 1000 if rnd.random() > 0.002 else rnd.randint(200, 3000) * 1000
        # a waiting switch gives up once its epoch is closed (its NACKs all lost, given up, or the epoch timed out)
        for t in [t for t in streams if t.waiting]:
            ar = t.sk.areas[t.epoch % t.sk.epochs]
            if ar.epoch != t.epoch or ar.state != 1:
                streams.remove(t)
        active = [t for t in streams if not t.waiting]
        x = rnd.random()
        if x < 0.01:
            # malformed or unroutable columns
            sk = rnd.choice(sketches)
            vals = [rnd.getrandbits(32) for _ in range(sk.rows)]
            kind = rnd.randrange(4)
            if kind == 0:
                bad = [rnd.getrandbits(32) for _ in range(sk.rows + 1)]
                send(switch_ip(sk, 0), sk.collector_ip, sk.sid, 0, 0, 0, sk.rows + 1, bad)
            elif kind == 1:
                send(switch_ip(sk, 0), sk.collector_ip, sk.sid, sk.switches + rnd.randrange(3), 0, 0, sk.rows, vals)
            elif kind == 2:
                send(switch_ip(sk, 0), sk.collector_ip, sk.sid, 0, 0, sk.cols + rnd.randrange(5), sk.rows, vals)
            else:
                send(switch_ip(sk, 0), sk.collector_ip, 99, 0, 0, 0, sk.rows, vals)
            continue
        if not active:
            # Only switches waiting for a tail NACK: an unroutable report moves the capture's clock on.
            now += rnd.randint(2, 20) * 1000
            sk = rnd.choice(sketches)
            send(switch_ip(sk, 0), sk.collector_ip, 99, 0, 0, 0, sk.rows, [0] * sk.rows)
            continue
        st = rnd.choice(active)
        sk = st.sk
        ip = switch_ip(sk, st.sw)
        if x < 0.015:
            # a column of an epoch long gone
            send(ip, sk.collector_ip, sk.sid, st.sw, max(0, st.epoch - sk.epochs - rnd.randrange(3)), 0, sk.rows,
                 st.values[0])
            continue
        if x < 0.06 and st.next > 0:
            c = rnd.randrange(st.next)
            send(ip, sk.collector_ip, sk.sid, st.sw, st.epoch, c, sk.rows, st.values[c])
            continue
        if x < 0.09 and st.rewind_to is None and st.next + 1 < st.stop_at:
            # lose one column: the switch goes on and rewinds when the NACK reaches it
            st.rewind_to, st.rewind_in = st.next, rnd.randint(1, 4)
            st.next += 1
        c = st.next
        if st.tail_from is None or c < st.tail_from:
            send(ip, sk.collector_ip, sk.sid, st.sw, st.epoch, c, sk.rows, st.values[c])
        st.next += 1
        if st.rewind_to is not None:
            st.rewind_in -= 1
            if st.rewind_in <= 0 or st.next >= st.stop_at:
                st.next, st.rewind_to = st.rewind_to, None
        if st.done():
            streams.remove(st)
            ar = sk.areas[st.epoch % sk.epochs]
            if st.resumed and ar.epoch == st.epoch and (ar.state == 1 or ar.state == 2):
                # a lost tail, recovered through a tail NACK: the switch has contributed every column
                assert ar.next[st.sw] == sk.cols, (sk.sid, st.epoch, st.sw, ar.next[st.sw])
                counts["tailsRecovered"] += 1
        elif st.next >= st.stop_at and st.rewind_to is None:
            st.waiting = True
        # the next epoch of a sketch starts once most of the current one has been sent (epochs overlap)
        for s2 in sketches:
            if started[id(s2)] < a.epochs:
                mine = [t for t in streams if t.sk is s2]
                if not mine or (len(mine) <= s2.switches // 2 and rnd.random() < 0.2):
                    start_epoch(s2)

    # Switches waiting for a tail NACK let the clock run on with no report: a last, unroutable report marks the end
    # of the input at the time of the model's last poll, so that the replay polls as far.
    if not reports or reports[-1][0] != now:
        send(switch_ip(sketches[0], 0), sketches[0].collector_ip, 99, 0, 0, 0, sketches[0].rows,
             [0] * sketches[0].rows)

    # end of input: the replay flushes at the time of the last frame it read
    for sk in sketches:
        sk.flush(now)
    for qp in senders:
        qp.release(True, now)

    # collector memory must hold the element-wise merge of what the switches contributed
    checked = 0
    for sk, memory in zip(sketches, memories):
        for ai, ar in enumerate(sk.areas):
            if ar is None:
                continue
            base = ai * sk.area_bytes
            head = struct.unpack_from("<IBBHIHHI", memory, base)
            assert head[0] == ar.epoch and head[1] == ar.state, (sk.sid, head, ar.epoch)
            parts = contributed.get((id(sk), ar.epoch), {})
            for c in range(sk.cols):
                for r in range(sk.rows):
                    vals = [v[r] for (sw, cc), v in parts.items() if cc == c]
                    if sk.kind == "count-min":
                        want = min(U32, sum(vals))
                    elif sk.kind == "count-sketch":
                        want = max(-0x80000000, min(0x7FFFFFFF, sum(signed(v) for v in vals))) & U32
                    else:
                        want = max(vals, default=0)
                    got = struct.unpack_from("<I", memory, base + 64 + (c * sk.rows + r) * 4)[0]
                    assert got == want, (sk.sid, ar.epoch, c, r, got, want)
                    if ar.state == 2:
                        assert len(vals) == sk.switches
                    checked += 1
    counts["cellsChecked"] = checked

    os.makedirs(a.out, exist_ok=True)
    m.write_pcap(os.path.join(a.out, "reports.pcap"), reports)
    expected = sorted([f for qp in senders for f in qp.out] + nacks + [f for sk in sketches for f in sk.nacks],
                      key=lambda f: f[0])
    m.write_pcap(os.path.join(a.out, "expected.pcap"), expected)
    for sk, memory in zip(sketches, memories):
        with open(os.path.join(a.out, "memory-%s-%d.bin" % (sk.collector_ip, sk.sid)), "wb") as f:
            f.write(bytes(memory))
    with open(os.path.join(a.out, "config.yaml"), "w") as f:
        f.write(config_yaml(sketches))
    counts["expectedFrames"] = len(expected)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(counts, f, indent=1)
    print(json.dumps(counts))


def config_yaml(sketches):
    def sketch_lines(col_ip):
        return "".join(
            "      - {id: %d, type: %s, rows: %d, columns: %d, switches: %d, batchColumns: %d, epochs: %d, "
            "epochTimeoutMicros: %d, %snackRetries: %d, localQpn: 0x%x, qpn: 0x%x, rkey: 0x%x, address: 0x%x, "
            "length: %d, startPsn: 0x%x}\n"
            % (sk.sid, sk.kind, sk.rows, sk.cols, sk.switches, sk.batch, sk.epochs, sk.timeout_ns // 1000,
               "" if sk.retry_us is None else "nackRetryMicros: %d, " % sk.retry_us, sk.max_retries,
               sk.qp.local_qpn, sk.qp.qpn, sk.qp.rkey, sk.qp.base, sk.qp.length, sk.qp.start_psn)
            for sk in sketches if sk.collector_ip == col_ip)
    return f"""# generated by sketch_model.py
translator: {{mac: "{m.APP_MAC}", ip: {m.APP_IP}, dscp: {m.DSCP}, ecn: {m.ECN}, ttl: {m.TTL}, pKey: 0x{m.PKEY:x}}}
reports: {{udpPort: {m.DTA_PORT}, baseHeader: "auto", nackPort: {NACK_PORT}}}
acks: {{requestInterval: {m.REQUEST_INTERVAL}, timeoutMicros: 3000000000}}
collectors:
  - name: a
    mac: "02:00:0a:00:00:33"
    ip: 10.0.0.51
    sketches:
{sketch_lines("10.0.0.51")}  - name: b
    mac: "02:00:0a:00:00:34"
    ip: 10.0.0.52
    sketches:
{sketch_lines("10.0.0.52")}"""


if __name__ == "__main__":
    main()
