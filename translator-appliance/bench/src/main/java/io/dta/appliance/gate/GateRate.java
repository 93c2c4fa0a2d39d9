package io.dta.appliance.gate;

import java.util.List;
import java.util.Map;

/**
 * Which rate of the rounds' results the gate compares. Per CPU second of the measuring thread when every round of
 * both sides gives one: the engine's own cost, which a machine shared with other work changes far less than the wall
 * clock's rate. Otherwise per wall second (through DPDK without --compare-c, or a baseline too old to give it), and
 * frames per second for a capture that held no DTA report.
 */
public enum GateRate
{
    /** {@code reportsPerCpuSecond}. */
    CPU("reportsPerCpuSecond"),

    /** {@code reportsPerSecond}, or {@code framesPerSecond} when that is 0. */
    WALL("reportsPerSecond");

    private final String key;

    GateRate(final String key)
    {
        this.key = key;
    }

    /**
     * @return the name of the rate in a round's JSON result.
     */
    public String key()
    {
        return key;
    }

    /**
     * @param sides the rounds of each side.
     * @return CPU when every round of every side has a positive CPU rate, else WALL.
     */
    @SafeVarargs
    public static GateRate choose(final List<Map<String, Object>>... sides)
    {
        for (final List<Map<String, Object>> rounds : sides)
        {
            for (final Map<String, Object> round : rounds)
            {
                if (!(number(round.get(CPU.key)) > 0))
                {
                    return WALL;
                }
            }
        }
        return CPU;
    }

    /**
     * @param result a round's JSON result.
     * @return its rate of this kind.
     */
    public double of(final Map<String, Object> result)
    {
        final double rate = number(result.get(key));
        return WALL == this && !(rate > 0) ? number(result.get("framesPerSecond")) : rate;
    }

    /**
     * @param rounds rounds' JSON results.
     * @return their rates of this kind, in order.
     */
    public double[] of(final List<Map<String, Object>> rounds)
    {
        return rounds.stream().mapToDouble(this::of).toArray();
    }

    private static double number(final Object value)
    {
        return value instanceof Number n ? n.doubleValue() : 0;
    }
}
