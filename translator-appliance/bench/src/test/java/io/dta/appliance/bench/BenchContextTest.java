package io.dta.appliance.bench;

import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BenchContextTest
{
    @Test
    void shouldDigestTheEffectiveConfigurationStablyAndTellChangesApart()
    {
        final ApplianceConfig config = ConfigDefaults.load();
        final String digest = BenchContext.configDigest(config);
        assertTrue(digest.matches("[0-9a-f]{64}"), digest);
        assertEquals(digest, BenchContext.configDigest(ConfigDefaults.load()));
        final int other = config.append().batchSize() == 16 ? 8 : 16;
        assertNotEquals(digest, BenchContext.configDigest(EngineBench.withBatchSize(config, other)));
    }

    @Test
    void shouldCarryTheContextKeysAndTheMeasuredPhaseAsOneRound()
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("reports", 10L);
        out.put("seconds", 0.5);
        out.put("reportsPerSecond", 20L);
        BenchContext.attach(out, ConfigDefaults.load());
        @SuppressWarnings("unchecked") final Map<String, Object> context = (Map<String, Object>)out.get("context");
        assertEquals(List.of("version", "commit", "buildTime", "dpdkVersion", "jvm", "javaHome", "jvmFlags",
            "cpuModel", "cores", "kernel", "configSha256", "measuredAt"), List.copyOf(context.keySet()));
        assertEquals(Runtime.getRuntime().availableProcessors(), context.get("cores"));
        assertTrue(context.get("kernel").toString().contains(System.getProperty("os.version")));
        assertEquals(List.of(Map.of("reports", 10L, "seconds", 0.5, "reportsPerSecond", 20L)), out.get("roundFigures"));
    }

    @Test
    void shouldLeaveResultsWithRoundsOfTheirOwnAsTheyAre()
    {
        final Map<String, Object> out = new LinkedHashMap<>();
        out.put("javaRounds", new long[] { 1, 2 });
        out.put("seconds", 1.0);
        BenchContext.attach(out, ConfigDefaults.load());
        assertFalse(out.containsKey("roundFigures"));
        assertTrue(out.containsKey("context"));
    }
}
