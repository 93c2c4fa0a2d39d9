package io.dta.appliance.gen;

import io.dta.codec.DtaBaseHeaderForm;
import io.dta.codec.Ipv4Address;


/**
 * What {@link ReportGenerator} generates: a mutable bag of settings with fluent setters, read once when a
 * generator is built. Unset (null) values take their defaults from the configuration. Each setter validates its
 * own range and throws {@link GeneratorSettingsException} naming the {@code dta gen} option; checks against the
 * configuration happen when the generator is built.
 */
public final class GeneratorSettings extends SketchSettings<GeneratorSettings>
{
    /** Default number of reports of {@code dta gen}. */
    public static final long DEFAULT_REPORTS = 10_000;
    /** Default key space. */
    public static final long DEFAULT_KEY_SPACE = 65536;
    /** Largest key space: every u32 key. */
    public static final long MAX_KEY_SPACE = 1L << 32;
    /** Default Zipf exponent. */
    public static final double DEFAULT_ZIPF_EXPONENT = 1.1;
    /** Default redundancy N (capped at {@code redundancy.max}). */
    public static final int DEFAULT_REDUNDANCY = 2;
    /** Default number of reporters. */
    public static final int DEFAULT_REPORTERS = 4;
    /** Largest number of reporters. */
    public static final int MAX_REPORTERS = 65536;
    /**
     * First reporter address, 10.0.1.1: reporter i below {@value #MAX_SWITCHES} has this plus i; the later ones
     * skip the sketch switches' block ({@link #reporterIp(int)}).
     */
    public static final int FIRST_REPORTER_IP = 0x0A00_0101;
    /** Default gap between report timestamps. */
    public static final long DEFAULT_SPACING_NANOS = 1000;
    /** Default start time: 2024-01-01T00:00:00Z, fixed so a capture depends only on the arguments. */
    public static final long DEFAULT_START_TIME_SECONDS = 1_704_067_200L;
    /** Default seed. */
    public static final long DEFAULT_SEED = 1;
    /** UDP source port of reports, as the reference generators use. */
    public static final int REPORT_SOURCE_PORT = 40041;
    /** Largest postcard hop count (the hop field is a u8). */
    public static final int MAX_HOPS = 255;
    /**
     * First sketch switch address, 10.0.2.1; switch s has this plus s, up to 10.0.3.0, right after reporter 255
     * (10.0.2.0) and before reporter 256 (10.0.3.1).
     */
    public static final int FIRST_SWITCH_IP = 0x0A00_0201;

    private final int[] mixWeights = { 40, 30, 20, 10, 0 };
    private boolean mixExplicit;
    private KeyDistribution keyDistribution = KeyDistribution.UNIFORM;
    private long keySpace = DEFAULT_KEY_SPACE;
    private double zipfExponent = DEFAULT_ZIPF_EXPONENT;
    private int redundancyMin = -1;
    private int redundancyMax = -1;
    private long[] listIds;
    private DtaBaseHeaderForm baseHeader;
    private double essentialFraction;
    private boolean retransmittable;
    private int reporters = DEFAULT_REPORTERS;
    private int[] collectorIps;
    private long spacingNanos = DEFAULT_SPACING_NANOS;
    private long startTimeNanos = DEFAULT_START_TIME_SECONDS * 1_000_000_000L;
    private long seed = DEFAULT_SEED;
    private int hops;
    private double postcardLoss;
    private double badFraction;

    /**
     * Set the primitive mix from weights per primitive; primitives not named get weight 0.
     *
     * @param text e.g. {@code keywrite=40,append=30,keyincrement=20,postcard=10}; weights are relative.
     * @return this.
     */
    public GeneratorSettings mix(final String text)
    {
        final int[] weights = SettingsText.mixWeights(text);
        System.arraycopy(weights, 0, mixWeights, 0, weights.length);
        mixExplicit = true;
        return this;
    }

    /**
     * Set the primitive mix like {@link #mix(String)}, as a default: primitives the configuration cannot route are
     * left out silently rather than refused (what a tool's own default mix wants).
     *
     * @param text e.g. {@code keywrite=40,append=30,keyincrement=20,postcard=10,sketch=7}.
     * @return this.
     */
    public GeneratorSettings defaultMix(final String text)
    {
        mix(text);
        mixExplicit = false;
        return this;
    }

    /**
     * Set one primitive's weight (marks the mix explicit, like {@link #mix(String)}).
     *
     * @param primitive the primitive.
     * @param weight    its relative weight, 0 or more.
     * @return this.
     */
    public GeneratorSettings mixWeight(final Primitive primitive, final int weight)
    {
        if (weight < 0)
        {
            throw new GeneratorSettingsException("--mix", "weight must not be negative: " + weight);
        }
        mixWeights[primitive.ordinal()] = weight;
        mixExplicit = true;
        return this;
    }

    /**
     * @param primitive a primitive.
     * @return its relative weight.
     */
    public int mixWeight(final Primitive primitive)
    {
        return mixWeights[primitive.ordinal()];
    }

    /**
     * @return true once the mix was set; the default mix silently leaves out primitives the configuration cannot
     * route, an explicit one is refused instead.
     */
    public boolean mixExplicit()
    {
        return mixExplicit;
    }

    /**
     * @param distribution how keys are drawn.
     * @return this.
     */
    public GeneratorSettings keyDistribution(final KeyDistribution distribution)
    {
        this.keyDistribution = distribution;
        return this;
    }

    /**
     * @param name sequential, uniform or zipf.
     * @return this.
     */
    public GeneratorSettings keyDistribution(final String name)
    {
        final KeyDistribution distribution = KeyDistribution.byCliName(name);
        if (null == distribution)
        {
            throw new GeneratorSettingsException("--keys", "must be sequential, uniform or zipf, not '" + name + "'");
        }
        return keyDistribution(distribution);
    }

    /**
     * @return how keys are drawn.
     */
    public KeyDistribution keyDistribution()
    {
        return keyDistribution;
    }

    /**
     * @param keySpace K: keys are 0..K-1, 1 to 2^32.
     * @return this.
     */
    public GeneratorSettings keySpace(final long keySpace)
    {
        if (keySpace < 1 || keySpace > MAX_KEY_SPACE)
        {
            throw new GeneratorSettingsException("--key-space", "must be between 1 and 4294967296, not " + keySpace);
        }
        this.keySpace = keySpace;
        return this;
    }

    /**
     * @return K, the number of distinct keys.
     */
    public long keySpace()
    {
        return keySpace;
    }

    /**
     * @param exponent the Zipf exponent s, above 0 and at most 100.
     * @return this.
     */
    public GeneratorSettings zipfExponent(final double exponent)
    {
        if (!(exponent > 0.0 && exponent <= 100.0))
        {
            throw new GeneratorSettingsException("--zipf-exponent", "must be above 0 and at most 100, not " + exponent);
        }
        this.zipfExponent = exponent;
        return this;
    }

    /**
     * @return the Zipf exponent.
     */
    public double zipfExponent()
    {
        return zipfExponent;
    }

    /**
     * @param min smallest N, at least 1.
     * @param max largest N, at least min (checked against {@code redundancy.max} when the generator is built).
     * @return this.
     */
    public GeneratorSettings redundancy(final int min, final int max)
    {
        if (min < 1 || max < min || max > 255)
        {
            throw new GeneratorSettingsException("--redundancy",
                "must be N or MIN-MAX with 1 <= MIN <= MAX <= 255, not " + (min == max ? min : min + "-" + max));
        }
        this.redundancyMin = min;
        this.redundancyMax = max;
        return this;
    }

    /**
     * @param text {@code N} or {@code MIN-MAX} (N drawn uniformly per report).
     * @return this.
     */
    public GeneratorSettings redundancy(final String text)
    {
        final int[] minMax = SettingsText.redundancy(text);
        return redundancy(minMax[0], minMax[1]);
    }

    /**
     * @return smallest N, or -1 for the default.
     */
    public int redundancyMin()
    {
        return redundancyMin;
    }

    /**
     * @return largest N, or -1 for the default.
     */
    public int redundancyMax()
    {
        return redundancyMax;
    }

    /**
     * @param ids Append list IDs to use, or null for every list of the (selected) collectors.
     * @return this.
     */
    public GeneratorSettings listIds(final long... ids)
    {
        if (null != ids)
        {
            if (ids.length == 0)
            {
                throw new GeneratorSettingsException("--lists", "needs at least one list ID");
            }
            for (final long id : ids)
            {
                if (id < 0 || id > 0xFFFF_FFFFL)
                {
                    throw new GeneratorSettingsException("--lists", "list ID " + id + " is not a u32");
                }
            }
            // A repeated id would be picked more often than the others, not uniformly: a mistake, as in --mix.
            for (int i = 1; i < ids.length; i++)
            {
                for (int j = 0; j < i; j++)
                {
                    if (ids[i] == ids[j])
                    {
                        throw new GeneratorSettingsException("--lists", "list " + ids[i] + " is named twice");
                    }
                }
            }
        }
        this.listIds = null == ids ? null : ids.clone();
        return this;
    }

    /**
     * @param text comma-separated list IDs, decimal or 0x-hex.
     * @return this.
     */
    public GeneratorSettings listIds(final String text)
    {
        return listIds(SettingsText.numbers("--lists", text));
    }

    /**
     * @return the list IDs (a copy), or null for the default.
     */
    public long[] listIds()
    {
        return null == listIds ? null : listIds.clone();
    }

    /**
     * @param form {@link DtaBaseHeaderForm#THREE}, {@link DtaBaseHeaderForm#TWO}, or null for the configuration's
     *             {@code reports.baseHeader} (3 when that is auto); a form other than a configured 3 or 2 is refused
     *             by {@link ReportGenerator}.
     * @return this.
     */
    public GeneratorSettings baseHeader(final DtaBaseHeaderForm form)
    {
        if (form == DtaBaseHeaderForm.AUTO)
        {
            throw new GeneratorSettingsException("--base-header", "must be 3 or 2: a generator picks one form");
        }
        this.baseHeader = form;
        return this;
    }

    /**
     * @param text "3" or "2".
     * @return this.
     */
    public GeneratorSettings baseHeader(final String text)
    {
        return switch (text.trim())
        {
            case "3" -> baseHeader(DtaBaseHeaderForm.THREE);
            case "2" -> baseHeader(DtaBaseHeaderForm.TWO);
            default -> throw new GeneratorSettingsException("--base-header", "must be 3 or 2, not '" + text + "'");
        };
    }

    /**
     * @return the base-header form, or null for the configuration's.
     */
    public DtaBaseHeaderForm baseHeader()
    {
        return baseHeader;
    }

    /**
     * @param fraction share of reports flagged essential, 0..1 (3-byte form only).
     * @return this.
     */
    public GeneratorSettings essentialFraction(final double fraction)
    {
        this.essentialFraction = SettingsText.fraction("--essential", fraction, true);
        return this;
    }

    /**
     * @return share of reports flagged essential.
     */
    public double essentialFraction()
    {
        return essentialFraction;
    }

    /**
     * @param retransmittable set the retransmittable flag on every report (3-byte form only).
     * @return this.
     */
    public GeneratorSettings retransmittable(final boolean retransmittable)
    {
        this.retransmittable = retransmittable;
        return this;
    }

    /**
     * @return whether reports carry the retransmittable flag.
     */
    public boolean retransmittable()
    {
        return retransmittable;
    }

    /**
     * @param reporters number of reporters, 1 to {@value #MAX_REPORTERS}; reporter i is {@link #reporterIp(int)}.
     * @return this.
     */
    public GeneratorSettings reporters(final int reporters)
    {
        if (reporters < 1 || reporters > MAX_REPORTERS)
        {
            throw new GeneratorSettingsException("--reporters", "must be between 1 and " + MAX_REPORTERS + ", not " +
                reporters);
        }
        this.reporters = reporters;
        return this;
    }

    /**
     * @return number of reporters.
     */
    public int reporters()
    {
        return reporters;
    }

    /**
     * The address plan: reporters 0..255 are 10.0.1.1..10.0.2.0 (10.0.1.1 + i), the sketch switches own the next
     * {@value #MAX_SWITCHES} addresses 10.0.2.1..10.0.3.0 ({@link #switchIp(int)}), and reporters 256 and up continue
     * after them, 10.0.3.1..10.1.2.0 (10.0.1.1 + 256 + i), so that no two senders share an address (and MAC) for
     * any allowed count. Sharing one would mix two seqnum streams in the translator's sequence tracking.
     *
     * @param index reporter index, 0 .. {@value #MAX_REPORTERS} - 1.
     * @return the reporter's IPv4 address.
     */
    public static int reporterIp(final int index)
    {
        return FIRST_REPORTER_IP + (index < MAX_SWITCHES ? index : index + MAX_SWITCHES);
    }

    /**
     * @param switchId sketch switch, 0 .. {@value #MAX_SWITCHES} - 1.
     * @return the switch's IPv4 address, 10.0.2.1 + switchId (see {@link #reporterIp(int)}).
     */
    public static int switchIp(final int switchId)
    {
        return FIRST_SWITCH_IP + switchId;
    }

    /**
     * @param ips collector addresses (each must be a collector of the configuration), or null for all of them.
     * @return this.
     */
    public GeneratorSettings collectorIps(final int... ips)
    {
        if (null != ips && ips.length == 0)
        {
            throw new GeneratorSettingsException("--collector", "needs at least one address");
        }
        if (null != ips)
        {
            for (int i = 1; i < ips.length; i++)
            {
                for (int j = 0; j < i; j++)
                {
                    if (ips[i] == ips[j])
                    {
                        throw new GeneratorSettingsException(
                            "--collector", Ipv4Address.format(ips[i]) + " is named twice");
                    }
                }
            }
        }
        this.collectorIps = null == ips ? null : ips.clone();
        return this;
    }

    /**
     * @param text comma-separated dotted-quad addresses.
     * @return this.
     */
    public GeneratorSettings collectorIps(final String text)
    {
        return collectorIps(SettingsText.collectorIps(text));
    }

    /**
     * @return the selected collector addresses (a copy), or null for all.
     */
    public int[] collectorIps()
    {
        return null == collectorIps ? null : collectorIps.clone();
    }

    /**
     * @param nanos gap between consecutive report timestamps, 0 or more.
     * @return this.
     */
    public GeneratorSettings spacingNanos(final long nanos)
    {
        if (nanos < 0 || nanos > 3_600_000_000_000L)
        {
            throw new GeneratorSettingsException("--spacing-nanos", "must be between 0 and 3.6e12 (one hour), not " +
                nanos);
        }
        this.spacingNanos = nanos;
        return this;
    }

    /**
     * @return gap between consecutive report timestamps.
     */
    public long spacingNanos()
    {
        return spacingNanos;
    }

    /**
     * @param seconds timestamp of the first report, seconds since the epoch, 0 to 2^32-1 (the pcap range).
     * @return this.
     */
    public GeneratorSettings startTimeSeconds(final long seconds)
    {
        if (seconds < 0 || seconds > 0xFFFF_FFFFL)
        {
            throw new GeneratorSettingsException("--start-time", "must be between 0 and 4294967295, not " + seconds);
        }
        this.startTimeNanos = seconds * 1_000_000_000L;
        return this;
    }

    /**
     * @return timestamp of the first report in nanoseconds since the epoch.
     */
    public long startTimeNanos()
    {
        return startTimeNanos;
    }

    /**
     * @param seed seed of the generator's {@link java.util.SplittableRandom}.
     * @return this.
     */
    public GeneratorSettings seed(final long seed)
    {
        this.seed = seed;
        return this;
    }

    /**
     * @return the seed.
     */
    public long seed()
    {
        return seed;
    }

    /**
     * @param hops postcard hops per flow, 1..255, or 0 for the configuration's {@code postcards.hops}; more than
     *             {@code postcards.hops} is refused by {@link ReportGenerator}.
     * @return this.
     */
    public GeneratorSettings hops(final int hops)
    {
        if (hops < 0 || hops > MAX_HOPS)
        {
            throw new GeneratorSettingsException("--hops", "must be between 1 and " + MAX_HOPS + ", not " + hops);
        }
        this.hops = hops;
        return this;
    }

    /**
     * @return postcard hops per flow, 0 for the configuration's.
     */
    public int hops()
    {
        return hops;
    }

    /**
     * @param fraction share of postcard hops not sent, 0 (inclusive) to 1 (exclusive).
     * @return this.
     */
    public GeneratorSettings postcardLoss(final double fraction)
    {
        this.postcardLoss = SettingsText.fraction("--postcard-loss", fraction, false);
        return this;
    }

    /**
     * @return share of postcard hops not sent.
     */
    public double postcardLoss()
    {
        return postcardLoss;
    }

    /**
     * @param fraction share of deliberately invalid reports, 0..1.
     * @return this.
     */
    public GeneratorSettings badFraction(final double fraction)
    {
        this.badFraction = SettingsText.fraction("--bad", fraction, true);
        return this;
    }

    /**
     * @return share of deliberately invalid reports.
     */
    public double badFraction()
    {
        return badFraction;
    }

    @Override
    GeneratorSettings self()
    {
        return this;
    }
}
