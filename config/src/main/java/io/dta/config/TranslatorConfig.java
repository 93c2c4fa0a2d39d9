package io.dta.config;

/**
 * The appliance's own identity on the collector network and the IPv4 marking of the RoCEv2 frames it emits.
 *
 * @param mac  source MAC of emitted frames (low 48 bits).
 * @param ip   source IPv4 address of emitted frames, first octet most significant.
 * @param dscp DSCP, 0..63, default 0.
 * @param ecn  ECN codepoint, 0..3, default 0 (Not-ECT).
 * @param ttl  IPv4 TTL, 1..255, default 64.
 * @param pKey BTH partition key, default 0xFFFF (the default partition, full member).
 */
public record TranslatorConfig(long mac, int ip, int dscp, int ecn, int ttl, int pKey)
{
    /**
     * Default DSCP.
     */
    public static final int DEFAULT_DSCP = 0;

    /**
     * Default ECN codepoint.
     */
    public static final int DEFAULT_ECN = 0;

    /**
     * Default TTL.
     */
    public static final int DEFAULT_TTL = 64;

    /**
     * Default partition key.
     */
    public static final int DEFAULT_P_KEY = 0xFFFF;
}
