#!/usr/bin/python3
"""Independent RoCEv2 oracle built on scapy's contrib.roce (its own ICRC implementation).

  scapy_roce.py check FILE.pcap          one line per frame: "<index> ok|bad|notroce"
  scapy_roce.py gen FILE.pcap N SEED     N random RoCEv2 frames built by scapy (ICRC by scapy), and one line
                                         per frame on stdout: "<opcode> <dqpn> <psn> <ackreq> <field>"
"""
import random
import struct
import sys

from scapy.all import Ether, IP, UDP, Raw, rdpcap, wrpcap
from scapy.contrib.roce import BTH


def check(path):
    for index, pkt in enumerate(rdpcap(path), 1):
        if BTH not in pkt:
            print(index, "notroce")
            continue
        wire = bytes(pkt)
        rebuilt = pkt.copy()
        rebuilt[BTH].icrc = None
        expected = bytes(rebuilt)
        print(index, "ok" if expected == wire else "bad")


def gen(path, count, seed):
    rnd = random.Random(seed)
    frames = []
    for _ in range(count):
        op = rnd.choice([0x0A, 0x14, 0x11, 0x12])
        dqpn = rnd.randrange(1 << 24)
        psn = rnd.randrange(1 << 24)
        ackreq = rnd.randrange(2)
        if op == 0x0A:
            length = rnd.randrange(0, 200)
            payload = bytes(rnd.randrange(256) for _ in range(length))
            pad = (-length) & 3
            va = rnd.randrange(1 << 64)
            ext = struct.pack(">QII", va, rnd.randrange(1 << 32), length) + payload + b"\0" * pad
            field = va
        elif op == 0x14:
            pad = 0
            add = rnd.randrange(1 << 64)
            va = rnd.randrange(1 << 61) * 8
            ext = struct.pack(">QIQQ", va, rnd.randrange(1 << 32), add, 0)
            field = add
        elif op == 0x11:
            pad = 0
            syndrome = rnd.choice([0x1F, 0x00, 0x60, 0x61, 0x62])
            ext = struct.pack(">I", (syndrome << 24) | rnd.randrange(1 << 24))
            field = syndrome
        else:
            pad = 0
            orig = rnd.randrange(1 << 64)
            ext = struct.pack(">IQ", (0x1F << 24) | rnd.randrange(1 << 24), orig)
            field = orig
        pkt = (Ether(src="02:00:00:00:00:01", dst="02:00:00:00:00:02")
               / IP(src="10.0.0.%d" % rnd.randrange(1, 255), dst="10.0.1.%d" % rnd.randrange(1, 255),
                    tos=rnd.randrange(256), ttl=rnd.randrange(1, 256), id=rnd.randrange(65536), flags="DF")
               / UDP(sport=rnd.randrange(0xC000, 0x10000), dport=4791, chksum=0)
               / BTH(opcode=op, migreq=1, padcount=pad, dqpn=dqpn, ackreq=ackreq, psn=psn)
               / Raw(ext))
        frames.append(pkt)
        print(op, dqpn, psn, ackreq, field)
    wrpcap(path, frames)


if __name__ == "__main__":
    if sys.argv[1] == "check":
        check(sys.argv[2])
    else:
        gen(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
