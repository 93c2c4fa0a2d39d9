package io.dta.appliance.gen;

import io.dta.config.ApplianceConfig;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The primitive mix: what the selected collectors cannot take is left out of a default mix and refused in an
 * explicit one; draws follow the weights; a dropped primitive is never drawn again.
 */
class PrimitiveMixTest
{
    private static PrimitiveMix mix(final ApplianceConfig config, final GeneratorSettings settings)
    {
        return new PrimitiveMix(settings, new GeneratorTargets(config, settings));
    }

    @Test
    void shouldLeavePostcardsOutOfTheDefaultMixWhenNoCollectorTakesThem()
    {
        final PrimitiveMix mix = mix(GenTestConfigs.twoCollectors(), new GeneratorSettings());

        assertEquals(List.of(Primitive.POSTCARD), mix.omitted());
        assertFalse(mix.has(Primitive.POSTCARD));
        assertEquals(0.0, mix.share(Primitive.POSTCARD));
        final int kw = new GeneratorSettings().mixWeight(Primitive.KEY_WRITE);
        final int total = kw + new GeneratorSettings().mixWeight(Primitive.APPEND) +
            new GeneratorSettings().mixWeight(Primitive.KEY_INCREMENT);
        assertEquals(kw / (double)total, mix.share(Primitive.KEY_WRITE), 1e-12);
    }

    @Test
    void shouldRefuseAnExplicitMixNamingWhatNoCollectorTakes()
    {
        final GeneratorSettingsException ex = assertThrows(GeneratorSettingsException.class,
            () -> mix(GenTestConfigs.twoCollectors(), new GeneratorSettings().mix("keywrite=1,postcard=1")));

        assertEquals("--mix", ex.option());
        assertTrue(ex.getMessage().contains("postcard needs a collector with a postcards store"), ex.getMessage());
    }

    @Test
    void shouldDrawByWeight()
    {
        final PrimitiveMix mix = mix(GenTestConfigs.twoCollectors(),
            new GeneratorSettings().mix("keywrite=3,append=1"));
        final SplittableRandom random = new SplittableRandom(7);
        final int draws = 40_000;
        int keyWrites = 0;
        for (int i = 0; i < draws; i++)
        {
            final Primitive p = mix.pick(random);
            assertTrue(Primitive.KEY_WRITE == p || Primitive.APPEND == p, "drew " + p);
            keyWrites += Primitive.KEY_WRITE == p ? 1 : 0;
        }
        assertEquals(0.75, keyWrites / (double)draws, 0.02);
    }

    @Test
    void shouldNeverDrawADroppedPrimitiveAndEmptyWhenNoneIsLeft()
    {
        final PrimitiveMix mix = mix(GenTestConfigs.twoCollectors(),
            new GeneratorSettings().mix("keywrite=3,append=1"));
        final SplittableRandom random = new SplittableRandom(11);

        mix.drop(Primitive.KEY_WRITE);

        assertEquals(1.0, mix.share(Primitive.APPEND));
        for (int i = 0; i < 1000; i++)
        {
            assertEquals(Primitive.APPEND, mix.pick(random));
        }
        assertFalse(mix.empty());
        mix.drop(Primitive.APPEND);
        assertTrue(mix.empty());
    }
}
