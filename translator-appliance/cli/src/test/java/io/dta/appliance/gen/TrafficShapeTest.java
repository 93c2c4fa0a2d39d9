package io.dta.appliance.gen;

import io.dta.config.ApplianceConfig;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The traffic's shape: sequential keys wrap at the key space, N stays in its range, a postcard flow sends its hops in
 * order from consecutive reporters, and what the configuration cannot take is refused naming the option.
 */
class TrafficShapeTest
{
    private static final int[] ONE_COLLECTOR = { 0 };

    @Test
    void shouldWrapSequentialKeysAtTheKeySpace()
    {
        final TrafficShape shape = new TrafficShape(new SplittableRandom(1), GenTestConfigs.demo("3"),
            new GeneratorSettings().keyDistribution(KeyDistribution.SEQUENTIAL).keySpace(3));

        final long[] keys = new long[7];
        for (int i = 0; i < keys.length; i++)
        {
            keys[i] = shape.nextKey();
        }

        assertEquals("[0, 1, 2, 0, 1, 2, 0]", Arrays.toString(keys));
    }

    @Test
    void shouldDrawRedundancyWithinItsRange()
    {
        final TrafficShape shape = new TrafficShape(new SplittableRandom(3), GenTestConfigs.twoCollectors(),
            new GeneratorSettings().redundancy(2, 3));
        final boolean[] seen = new boolean[4];
        for (int i = 0; i < 1000; i++)
        {
            final int n = shape.pickRedundancy();
            assertTrue(n >= 2 && n <= 3, "N " + n);
            seen[n] = true;
        }
        assertTrue(seen[2] && seen[3]);
    }

    @Test
    void shouldSendEveryHopOfAFlowInOrderFromConsecutiveReporters()
    {
        final ApplianceConfig config = GenTestConfigs.demo("3");
        final int hops = config.postcards().hops();
        final int reporters = 7;
        final TrafficShape shape = new TrafficShape(new SplittableRandom(5), config,
            new GeneratorSettings().reporters(reporters));

        for (int flow = 1; flow <= 20; flow++)
        {
            int firstReporter = -1;
            long key = -1;
            for (int expectedHop = 1; expectedHop <= hops; expectedHop++)
            {
                shape.advanceFlow(ONE_COLLECTOR);
                final int hop = shape.takeHop();
                assertEquals(expectedHop, hop);
                final int reporter = shape.flowReporter(hop);
                firstReporter = 1 == hop ? reporter : firstReporter;
                key = 1 == hop ? shape.flowKey() : key;
                assertEquals((firstReporter + hop - 1) % reporters, reporter);
                assertEquals(key, shape.flowKey());
            }
            assertEquals(flow, shape.postcardFlows());
        }
        assertEquals(0, shape.postcardHopsSkipped());
    }

    @Test
    void shouldCountTheHopsLostToPostcardLoss()
    {
        final ApplianceConfig config = GenTestConfigs.demo("3");
        final int hops = config.postcards().hops();
        final TrafficShape shape = new TrafficShape(new SplittableRandom(9), config,
            new GeneratorSettings().postcardLoss(0.5));
        long sent = 0;
        for (int i = 0; i < 10_000; i++)
        {
            shape.advanceFlow(ONE_COLLECTOR);
            final int hop = shape.takeHop();
            assertTrue(hop >= 1 && hop <= hops, "hop " + hop);
            sent++;
        }
        // Every hop of a finished flow was sent or lost; the flow in progress has at most all its hops to go.
        final long accounted = sent + shape.postcardHopsSkipped();
        assertTrue(accounted <= shape.postcardFlows() * hops, accounted + " > " + shape.postcardFlows() * hops);
        assertTrue(accounted > (shape.postcardFlows() - 1) * hops, accounted + " <= " +
            (shape.postcardFlows() - 1) * hops);
        assertEquals(0.5, shape.postcardHopsSkipped() / (double)accounted, 0.05);
    }

    @Test
    void shouldRefuseMoreHopsOrRedundancyThanTheConfigurationTakes()
    {
        final ApplianceConfig config = GenTestConfigs.twoCollectors();
        final GeneratorSettingsException hops = assertThrows(GeneratorSettingsException.class,
            () -> new TrafficShape(new SplittableRandom(1), config,
                new GeneratorSettings().hops(config.postcards().hops() + 1)));
        final GeneratorSettingsException redundancy = assertThrows(GeneratorSettingsException.class,
            () -> new TrafficShape(new SplittableRandom(1), config,
                new GeneratorSettings().redundancy(1, config.redundancy().max() + 1)));

        assertEquals("--hops", hops.option());
        assertEquals("--redundancy", redundancy.option());
    }
}
