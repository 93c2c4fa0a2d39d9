package io.dta.codec;

/**
 * Classification of a received frame by {@link FrameDecoder}.
 */
public enum FrameKind
{
    /** A well-formed DTA report: IPv4/UDP to the configured DTA port with a known opcode and a valid length. */
    DTA,
    /** A well-formed RoCEv2 packet: IPv4/UDP to port 4791 with a known BTH opcode and consistent lengths. */
    ROCE,
    /** Well-formed as far as parsed but not ours (ARP, IPv6, TCP, other UDP ports, ...): pass or ignore. */
    OTHER,
    /** Aimed at us (or unparseable) but broken; {@link FrameDecoder#malformedReason()} says why. */
    MALFORMED
}
