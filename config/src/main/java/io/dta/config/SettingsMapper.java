package io.dta.config;

import static io.dta.config.ConfigLimits.MAX_MICROS;
import static io.dta.config.ConfigText.hex;

/**
 * Maps the global sections of the configuration, every top-level section but {@code collectors}: translator,
 * reports, redundancy, append, postcards, acks, resync, essential, connection and workers.
 */
final class SettingsMapper
{
    private static final int[] BATCH_SIZES = { 1, 2, 4, 8, 16 };

    private final ConfigProblems problems;

    SettingsMapper(final ConfigProblems problems)
    {
        this.problems = problems;
    }

    TranslatorConfig translator(final ConfigSection s)
    {
        if (null == s)
        {
            return null;
        }
        final long mac = s.mac("mac");
        final int ip = s.ipv4("ip");
        final int dscp = (int)s.integer("dscp", 0, 63, TranslatorConfig.DEFAULT_DSCP);
        final int ecn = (int)s.integer("ecn", 0, 3, TranslatorConfig.DEFAULT_ECN);
        final int ttl = (int)s.integer("ttl", 1, 255, TranslatorConfig.DEFAULT_TTL);
        final int pKey = (int)s.integer("pKey", 0, 0xFFFF, TranslatorConfig.DEFAULT_P_KEY);
        if (!problems.has(s.pathOf("pKey")) && (pKey & 0x7FFF) == 0)
        {
            problems.add(s.pathOf("pKey"), hex(pKey, 4) +
                " is not a valid partition key (0x0000 and 0x8000 are invalid)");
        }
        s.finish();
        return new TranslatorConfig(mac, ip, dscp, ecn, ttl, pKey);
    }

    ReportsConfig reports(final ConfigSection s)
    {
        final int udpPort = (int)s.integer("udpPort", 1, 65535, ReportsConfig.DEFAULT_UDP_PORT);
        if (!problems.has(s.pathOf("udpPort")) && ReportsConfig.ROCEV2_UDP_PORT == udpPort)
        {
            // The decoder tells reports from responses by destination port alone: with both on 4791 every ACK
            // and NAK would be parsed as a report and no QP would ever see its acknowledgements.
            problems.add(s.pathOf("udpPort"), udpPort + " is the RoCEv2 port, on which the collectors' " +
                "responses arrive; reports need a port of their own");
        }
        final BaseHeader baseHeader = s.baseHeader("baseHeader");
        final boolean verifyChecksums = s.bool("verifyChecksums", false);
        final int nackPort = (int)s.integer("nackPort", 1, 65535, ReportsConfig.DEFAULT_NACK_PORT);
        final long sequenceTimeout = s.integer(
            "sequenceTimeoutMicros", 0, MAX_MICROS, ReportsConfig.DEFAULT_SEQUENCE_TIMEOUT_MICROS);
        s.finish();
        return new ReportsConfig(udpPort, baseHeader, verifyChecksums, nackPort, sequenceTimeout);
    }

    RedundancyConfig redundancy(final ConfigSection s)
    {
        final int max = (int)s.integer("max", 1, RedundancyConfig.MAX_REDUNDANCY, RedundancyConfig.DEFAULT_MAX);
        s.finish();
        return new RedundancyConfig(max);
    }

    AppendConfig append(final ConfigSection s)
    {
        final int batchSize = (int)s.oneOf("batchSize", BATCH_SIZES, AppendConfig.DEFAULT_BATCH_SIZE);
        final long idle = s.integer("idleFlushMicros", 1, MAX_MICROS, AppendConfig.DEFAULT_IDLE_FLUSH_MICROS);
        s.finish();
        return new AppendConfig(batchSize, idle);
    }

    PostcardsConfig postcards(final ConfigSection s)
    {
        final int hops = (int)s.integer("hops", 1, PostcardsConfig.MAX_HOPS, PostcardsConfig.DEFAULT_HOPS);
        final long idle = s.integer("idleFlushMicros", 1, MAX_MICROS, PostcardsConfig.DEFAULT_IDLE_FLUSH_MICROS);
        final int cacheEntries = (int)s.integer(
            "cacheEntries", 1, PostcardsConfig.MAX_CACHE_ENTRIES, PostcardsConfig.DEFAULT_CACHE_ENTRIES);
        if (!problems.has(s.pathOf("cacheEntries")) && Integer.bitCount(cacheEntries) != 1)
        {
            problems.add(s.pathOf("cacheEntries"), cacheEntries + " is not a power of two");
        }
        s.finish();
        return new PostcardsConfig(hops, idle, cacheEntries);
    }

    AcksConfig acks(final ConfigSection s)
    {
        final int interval = (int)s.integer("requestInterval", 1, 65536, AcksConfig.DEFAULT_REQUEST_INTERVAL);
        final long timeout = s.integer("timeoutMicros", 1, MAX_MICROS, AcksConfig.DEFAULT_TIMEOUT_MICROS);
        final int window = (int)s.integer("window", 1, AcksConfig.MAX_WINDOW, AcksConfig.DEFAULT_WINDOW);
        s.finish();
        return new AcksConfig(interval, timeout, window);
    }

    ResyncConfig resync(final ConfigSection s)
    {
        final long micros = s.integer("graceMicros", 0, MAX_MICROS, ResyncConfig.DEFAULT_GRACE_MICROS);
        final long packets = s.integer("gracePackets", 0, 0xFFFFFFFFL, ResyncConfig.DEFAULT_GRACE_PACKETS);
        final long rnr = s.integer(
            "maxRnrWaitMicros", 0, ResyncConfig.MAX_RNR_WAIT_MICROS, ResyncConfig.DEFAULT_MAX_RNR_WAIT_MICROS);
        s.finish();
        return new ResyncConfig(micros, packets, rnr);
    }

    EssentialConfig essential(final ConfigSection s)
    {
        final int backlog = (int)s.integer(
            "backlog", 1, EssentialConfig.MAX_BACKLOG, EssentialConfig.DEFAULT_BACKLOG);
        s.finish();
        return new EssentialConfig(backlog);
    }

    ConnectionConfig connection(final ConfigSection s, final AcksConfig acks)
    {
        final int cmTimeout = (int)s.integer(
            "cmResponseTimeout", 0, 31, ConnectionConfig.DEFAULT_CM_RESPONSE_TIMEOUT);
        final int cmRetries = (int)s.integer("maxCmRetries", 0, 15, ConnectionConfig.DEFAULT_MAX_CM_RETRIES);
        final int ackTimeout = (int)s.integer("localAckTimeout", 0, 31, ConnectionConfig.DEFAULT_LOCAL_ACK_TIMEOUT);
        final int retryCount = (int)s.integer("retryCount", 0, 7, ConnectionConfig.DEFAULT_RETRY_COUNT);
        final int reconnects = (int)s.integer(
            "reconnectAttempts", 0, 1000, ConnectionConfig.DEFAULT_RECONNECT_ATTEMPTS);
        final long backoff = s.integer(
            "reconnectBackoffMillis", 1, 60_000, ConnectionConfig.DEFAULT_RECONNECT_BACKOFF_MILLIS);
        final long silence = silenceTimeout(s, acks);
        s.finish();
        return new ConnectionConfig(cmTimeout, cmRetries, ackTimeout, retryCount, reconnects, backoff, silence);
    }

    /**
     * The silence must last at least two ACK timeouts, or a collector would be taken for dead before a probe could
     * be answered. Given explicitly, a shorter value is refused; the default grows with a long ACK timeout instead,
     * so that raising {@code acks.timeoutMicros} alone never makes a configuration invalid.
     */
    private long silenceTimeout(final ConfigSection s, final AcksConfig acks)
    {
        final String key = "silenceTimeoutMillis";
        final boolean given = s.present(key);
        final long millis = s.integer(key, 0, 3_600_000, ConnectionConfig.DEFAULT_SILENCE_TIMEOUT_MILLIS);
        if (0 == millis || problems.has(s.pathOf(key)) || problems.has("acks.timeoutMicros"))
        {
            return millis;
        }
        final long leastMillis = (2 * acks.timeoutMicros() + 999) / 1000;
        if (millis >= leastMillis)
        {
            return millis;
        }
        if (given)
        {
            problems.add(s.pathOf(key), millis + " ms is shorter than two ACK timeouts (acks.timeoutMicros " +
                acks.timeoutMicros() + "): a collector would be taken for dead before a probe could be answered");
        }
        return leastMillis;
    }

    WorkersConfig workers(final ConfigSection s)
    {
        final int count = (int)s.integer("count", 1, WorkersConfig.MAX_WORKERS, 1);
        final int queueBytes = (int)s.integer("handOffQueueBytes", WorkersConfig.MIN_HAND_OFF_QUEUE_BYTES,
            WorkersConfig.MAX_HAND_OFF_QUEUE_BYTES, WorkersConfig.DEFAULT_HAND_OFF_QUEUE_BYTES);
        if (!problems.has(s.pathOf("handOffQueueBytes")) && Integer.bitCount(queueBytes) != 1)
        {
            problems.add(s.pathOf("handOffQueueBytes"), queueBytes + " is not a power of two");
        }
        s.finish();
        return new WorkersConfig(count, queueBytes);
    }
}
