package io.dta.codec;

/**
 * Why {@link FrameDecoder} classified a frame as {@link FrameKind#MALFORMED}. Each reason is meant to be a named
 * drop counter.
 */
public enum MalformedReason
{
    /** Not malformed. */
    NONE("not malformed"),
    /** The (offset, length) given to the decoder lie outside the buffer. */
    FRAME_OUT_OF_BUFFER("frame offset/length outside the buffer"),
    /** Shorter than the Ethernet header and its VLAN tags. */
    TRUNCATED_ETHERNET("frame shorter than the Ethernet header and its VLAN tags"),
    /** Shorter than the IPv4 header, or than the IPv4 total length. */
    TRUNCATED_IPV4("frame shorter than the IPv4 header or its total length"),
    /** EtherType IPv4 but the version nibble is not 4. */
    BAD_IP_VERSION("EtherType IPv4 but IP version is not 4"),
    /** IHL below 5. */
    BAD_IHL("IPv4 IHL below 5"),
    /** IPv4 total length smaller than its header. */
    BAD_IP_TOTAL_LENGTH("IPv4 total length smaller than the IPv4 header"),
    /** A UDP IPv4 fragment: reports and RoCEv2 are never fragmented and fragments are not reassembled. */
    FRAGMENTED("fragmented IPv4 UDP datagram (not reassembled)"),
    /** The IP payload is shorter than a UDP header. */
    TRUNCATED_UDP("IP payload shorter than the UDP header"),
    /** UDP length below 8 or beyond the IP datagram. */
    BAD_UDP_LENGTH("UDP length below 8 or beyond the end of the IP datagram"),
    /** UDP checksum wrong (only when checksum verification is enabled). */
    BAD_UDP_CHECKSUM("UDP checksum wrong (verification enabled)"),
    /** DTA UDP payload shorter than the base header or the opcode's sub-header. */
    TRUNCATED_DTA("DTA payload shorter than the base header plus the primitive's sub-header"),
    /** DTA UDP payload length matches neither base-header form (auto detection). */
    BAD_DTA_LENGTH("DTA payload length matches neither base-header form"),
    /** DTA opcode not one of 0x01..0x05. */
    UNKNOWN_DTA_OPCODE("unknown DTA opcode"),
    /** RoCEv2 UDP payload shorter than BTH + ICRC. */
    TRUNCATED_BTH("RoCEv2 payload shorter than BTH plus ICRC"),
    /** BTH transport header version is not 0. */
    BAD_TVER("BTH transport header version is not 0"),
    /** BTH opcode unknown or reserved. */
    UNKNOWN_ROCE_OPCODE("unknown or reserved BTH opcode"),
    /** RoCEv2 UDP payload shorter than BTH + the opcode's extension headers + ICRC. */
    TRUNCATED_ROCE_HEADERS("RoCEv2 payload shorter than the opcode's extension headers plus ICRC"),
    /** PadCnt larger than the payload, or non-zero for an opcode without payload. */
    BAD_PAD("PadCnt larger than the payload or set on an opcode without payload"),
    /** Payload bytes present on an opcode that carries none (ACK, atomics, READ request). */
    UNEXPECTED_ROCE_PAYLOAD("payload bytes on an opcode that carries none"),
    /** The decoder hit an unexpected error; should never happen (a bug), but never propagates. */
    INTERNAL_ERROR("internal decoder error");

    private final String description;

    MalformedReason(final String description)
    {
        this.description = description;
    }

    /**
     * @return a human-readable description.
     */
    public String description()
    {
        return description;
    }
}
