package io.dta.config;

/**
 * How DTA reports arrive and how reporters are NACKed.
 *
 * @param udpPort         UDP destination port of reports, default 40040.
 * @param baseHeader      base header form, default {@link BaseHeader#THREE}.
 * @param verifyChecksums verify UDP checksums of reports, default false (reference generators send stale ones).
 * @param nackPort        UDP port reporters receive NACKs on, default 40044.
 * @param sequenceTimeoutMicros a reporter whose sequence gap stays unfilled this long is re-based on its next
 *                        report instead of being NACKed forever; 0 = never (strict), default 100000.
 */
public record ReportsConfig(
    int udpPort, BaseHeader baseHeader, boolean verifyChecksums, int nackPort, long sequenceTimeoutMicros)
{
    /**
     * Default report port.
     */
    public static final int DEFAULT_UDP_PORT = 40040;

    /**
     * The RoCEv2 UDP port (IANA 4791): responses from collectors arrive on it, so reports may not use it.
     */
    public static final int ROCEV2_UDP_PORT = 4791;

    /**
     * Default NACK port.
     */
    public static final int DEFAULT_NACK_PORT = 40044;

    /**
     * Default time after which an unfilled sequence gap re-bases the reporter.
     */
    public static final long DEFAULT_SEQUENCE_TIMEOUT_MICROS = 100_000;
}
