package io.dta.appliance.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.dta.config.ApplianceConfig;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * What a {@code dta bench --json} measured on: the product's version and commit, the JVM and its flags, the CPU, the
 * kernel, the DPDK the build was made against, a digest of the effective configuration and the time. Two results can
 * only be compared when their contexts say they may.
 */
public final class BenchContext
{
    private static final String UNKNOWN = "unknown";

    private BenchContext()
    {
    }

    /**
     * Adds {@code context} to a bench result, and {@code roundFigures} (the measured phase as one round) when the
     * result has no rounds of its own.
     *
     * @param out       the result as printed by {@code --json}.
     * @param appliance the effective configuration the bench ran with.
     */
    public static void attach(final Map<String, Object> out, final ApplianceConfig appliance)
    {
        if (!out.containsKey("javaRounds") && !out.containsKey("workerRounds") && out.containsKey("seconds"))
        {
            final Map<String, Object> round = new LinkedHashMap<>();
            for (final String key : new String[] { "reports", "frames", "seconds", "reportsPerSecond",
                "framesPerSecond", "reportsPerCpuSecond", "allocatedBytesPerReport", "gcCount", "drops" })
            {
                if (out.containsKey(key))
                {
                    round.put(key, out.get(key));
                }
            }
            out.put("roundFigures", List.of(round));
        }
        out.put("context", of(appliance));
    }

    /**
     * @param appliance the effective configuration.
     * @return the context, in a stable key order.
     */
    public static Map<String, Object> of(final ApplianceConfig appliance)
    {
        final Properties build = buildInfo();
        final Map<String, Object> c = new LinkedHashMap<>();
        final String version = BenchContext.class.getPackage().getImplementationVersion();
        c.put("version", null == version ? "development" : version);
        c.put("commit", build.getProperty("commit", UNKNOWN));
        c.put("buildTime", build.getProperty("buildTime", UNKNOWN));
        c.put("dpdkVersion", build.getProperty("dpdkVersion", UNKNOWN));
        c.put("jvm", System.getProperty("java.vm.name") + " " + Runtime.version() + " (" +
            System.getProperty("java.vendor") + ")");
        c.put("javaHome", System.getProperty("java.home"));
        c.put("jvmFlags", ManagementFactory.getRuntimeMXBean().getInputArguments());
        c.put("cpuModel", cpuModel());
        c.put("cores", Runtime.getRuntime().availableProcessors());
        c.put("kernel", System.getProperty("os.name") + " " + System.getProperty("os.version") + " " +
            System.getProperty("os.arch"));
        c.put("configSha256", configDigest(appliance));
        c.put("measuredAt", Instant.now().toString());
        return c;
    }

    /**
     * @param appliance a configuration.
     * @return the SHA-256 of its canonical JSON form (every value as loaded, defaults included), in hex.
     */
    public static String configDigest(final ApplianceConfig appliance)
    {
        try
        {
            final byte[] canonical = new ObjectMapper().configure(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS, true)
                .writeValueAsBytes(appliance);
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(canonical));
        }
        catch (final IOException | NoSuchAlgorithmException ex)
        {
            return UNKNOWN;
        }
    }

    private static Properties buildInfo()
    {
        final Properties p = new Properties();
        try (InputStream in = BenchContext.class.getResourceAsStream("/io/dta/appliance/build-info.properties"))
        {
            if (null != in)
            {
                p.load(in);
            }
        }
        catch (final IOException ex)
        {
            // Unknown it stays.
        }
        return p;
    }

    private static String cpuModel()
    {
        try
        {
            for (final String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8))
            {
                if (line.startsWith("model name"))
                {
                    return line.substring(line.indexOf(':') + 1).trim();
                }
            }
        }
        catch (final IOException ex)
        {
            // Not Linux, or no procfs.
        }
        return UNKNOWN;
    }
}
