package io.dta.appliance.bench;

import io.dta.appliance.engine.EngineCounter;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigLoader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The synthetic reports of {@code dta bench} take the configuration's base-header form: with {@code baseHeader: "2"}
 * they were still built with the 3-byte header, and the engine dropped every one as malformed.
 */
class BenchBaseHeaderTest
{
    private static final long REPORTS = 3000;

    @ParameterizedTest
    @ValueSource(strings = { "\"2\"", "\"3\"", "auto" })
    void shouldBenchEveryPrimitiveWithTheConfiguredBaseHeader(final String form)
    {
        final String yaml = ConfigDefaults.yaml().replace("baseHeader: \"3\"", "baseHeader: " + form);
        assertTrue(yaml.contains("baseHeader: " + form), "the default configuration names its base header");
        final ApplianceConfig config = ConfigLoader.load(yaml);
        int benched = 0;
        for (final BenchPrimitive primitive : BenchPrimitive.values())
        {
            if (null == primitive.collectorIn(config))
            {
                continue;
            }
            final EngineBench bench = new EngineBench(primitive, config, 1, 16, 1);
            final EngineBench.Result result = bench.run(0, REPORTS);
            assertEquals(REPORTS, result.reports(), primitive + " " + form);
            for (final EngineCounter counter : EngineCounter.values())
            {
                if (counter.name().startsWith("DROP_"))
                {
                    assertEquals(0, bench.engine().counters().get(counter), primitive + " " + form + " " + counter);
                }
            }
            assertTrue(result.frames() > 0, primitive + " " + form + ": frames out");
            benched++;
        }
        assertTrue(benched >= 4, "primitives the default configuration hosts: " + benched);
    }
}
