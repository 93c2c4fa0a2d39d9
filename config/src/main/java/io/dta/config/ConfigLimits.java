package io.dta.config;

/**
 * Limits several sections share: the QPN range and the longest time in microseconds.
 */
final class ConfigLimits
{
    static final int QPN_MIN = 2;
    static final int QPN_MAX = 0xFFFFFE;
    static final String QPN_NOTE = " (QPN 0 and 1 are reserved, 0xffffff is the multicast QPN)";
    static final long MAX_MICROS = 3_600_000_000L;

    private ConfigLimits()
    {
    }
}
