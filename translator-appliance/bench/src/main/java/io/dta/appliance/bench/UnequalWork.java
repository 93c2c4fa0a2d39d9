package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * What makes a {@code --compare-c} run compare unequal work: the reasons, with their counts, that the Java engine and
 * the C loop did not do the same work with the same frames.
 */
public final class UnequalWork
{
    private static final EngineCounter[] COUNTERS = EngineCounter.values();
    private static final Set<EngineCounter> RESPONSE_COUNTERS = EnumSet.of(
        EngineCounter.ACKS_IN, EngineCounter.ATOMIC_ACKS_IN, EngineCounter.NAK_SEQUENCE_ERRORS_IN,
        EngineCounter.NAK_FATAL_IN, EngineCounter.NAK_RNR_IN);
    private static final Set<EngineCounter> AFTER_TRANSLATION = EnumSet.of(
        EngineCounter.DROP_GRACE_PERIOD, EngineCounter.DROP_QP_ERROR, EngineCounter.DROP_BACKLOG_FULL,
        EngineCounter.DROP_ATOMIC_QUEUE_FULL);

    private UnequalWork()
    {
    }

    /**
     * Why the two loops of a {@code --compare-c} run did unequal work with the same frames, which makes their ratio
     * compare unequal work; empty when nothing says so. The keys (in this order) name the reasons in
     * {@code dta bench}'s JSON ({@code unequalWorkReasons}), the values say them with their counts:
     * <ul>
     *     <li>{@code responses}: collector responses among the frames (ACK, NAK, ATOMIC ACK). The engine acts on
     *     them (a NAK resynchronises its QP and drops reports in the grace period that follows), the C loop counts
     *     and skips them.</li>
     *     <li>{@code unsupportedReports}: reports the C loop does not handle (sequence-tracked, essential,
     *     Sketch-Merge).</li>
     *     <li>{@code fewerTranslated}: the C loop translated a smaller share of the frames it received.</li>
     *     <li>{@code droppedAfterTranslation}: the engine dropped reports after routing them (grace period or
     *     probing, QP in error, essential backlog or atomic queue full), which {@code reportsTranslated} counts as
     *     translated; the C loop has none of these states.</li>
     *     <li>{@code dropsDiffer}: the reports the engine dropped before translating them (every other reason but a
     *     full transmit queue) are not the C loop's drops and malformed frames, as they are for equal work; more
     *     than a thousandth of the frames received apart.</li>
     *     <li>{@code roceFramesOutDiffer}: the RoCEv2 frames sent differ by more than 1 % (for equal work they
     *     differ by a few held frames and idle flushes, which depend on the clock).</li>
     * </ul>
     *
     * @param java the Java engine over its rounds.
     * @param c    the C loop's counts over its rounds.
     * @return reason name to its description, in the order above.
     */
    public static Map<String, String> of(final DpdkBench.Result java, final DpdkBench.ReferenceCounts c)
    {
        final Map<String, String> reasons = new LinkedHashMap<>();
        long javaResponses = 0;
        long dropsBefore = 0;
        long dropsAfter = 0;
        final StringBuilder after = new StringBuilder();
        for (final EngineCounter counter : COUNTERS)
        {
            final long n = java.delta(counter);
            if (RESPONSE_COUNTERS.contains(counter) || counter.name().startsWith("RESPONSE_DROP_"))
            {
                javaResponses += n;
            }
            else if (AFTER_TRANSLATION.contains(counter))
            {
                dropsAfter += n;
                if (n > 0)
                {
                    after.append(after.isEmpty() ? "" : ", ").append(camel(counter)).append(' ').append(n);
                }
            }
            else if (counter.isDrop() && EngineCounter.DROP_TX_FULL != counter)
            {
                dropsBefore += n;
            }
        }
        if (c.responses() > 0 || javaResponses > 0)
        {
            reasons.put("responses", "the frames hold " + Math.max(c.responses(), javaResponses) + " collector " +
                "responses, which the engine acts on (NAK resyncs, grace periods) and the C loop skips");
        }
        if (c.unsupported() > 0)
        {
            reasons.put("unsupportedReports", c.unsupported() + " reports the C loop does not handle " +
                "(sequence-tracked, essential or Sketch-Merge)");
        }
        final double javaShare = java.framesIn() > 0 ?
            (double)java.delta(EngineCounter.REPORTS_TRANSLATED) / java.framesIn() : 0;
        final double referenceShare = c.framesIn() > 0 ? (double)c.reportsTranslated() / c.framesIn() : 0;
        if (referenceShare + 1e-3 < javaShare)
        {
            reasons.put("fewerTranslated", String.format(Locale.ROOT, "the C loop translated %.1f %% of " +
                "the frames it received, the engine %.1f %%", 100 * referenceShare, 100 * javaShare));
        }
        if (dropsAfter > 0)
        {
            reasons.put("droppedAfterTranslation", "the engine dropped " + dropsAfter + " of the reports it " +
                "translated (" + after + "), which reportsTranslated counts");
        }
        final long referenceDrops = c.drops() + c.malformed();
        if (Math.abs(dropsBefore - referenceDrops) * 1000 > Math.max(java.framesIn(), c.framesIn()))
        {
            reasons.put("dropsDiffer", "the engine dropped " + dropsBefore + " reports before translating them, " +
                "the C loop " + referenceDrops + " (drops and malformed frames)");
        }
        final long javaOut = java.delta(EngineCounter.ROCE_FRAMES_OUT);
        if (Math.abs(javaOut - c.framesOut()) * 100 > Math.max(javaOut, c.framesOut()))
        {
            reasons.put("roceFramesOutDiffer", "the engine sent " + javaOut + " RoCEv2 frames, the C loop " +
                c.framesOut());
        }
        return reasons;
    }

    /**
     * @param counter an engine counter.
     * @return its name as {@code dta replay --json} and {@code dta bench --json} spell it under {@code drops} ({@code dropGracePeriod}).
     */
    private static String camel(final EngineCounter counter)
    {
        final StringBuilder sb = new StringBuilder();
        for (final String word : counter.name().toLowerCase(Locale.ROOT).split("_"))
        {
            sb.append(sb.isEmpty() ? word : Character.toUpperCase(word.charAt(0)) + word.substring(1));
        }
        return sb.toString();
    }
}
