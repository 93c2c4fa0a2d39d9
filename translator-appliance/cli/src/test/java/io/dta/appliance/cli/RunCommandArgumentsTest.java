package io.dta.appliance.cli;

import io.dta.appliance.stat.CountersFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Bad numbers given to {@code dta run} and an uncreatable counters file (docs/dpdk.md): each option is named alone
 * with its value (not one message covering four options whichever was wrong), and a counters file that cannot be
 * created is explained by its reason, not by its own path.
 * Nothing here starts an EAL: the checks come first.
 */
class RunCommandArgumentsTest
{
    @TempDir
    Path dir;

    @Test
    void shouldNameTheOptionThatIsOutOfRange()
    {
        assertRefused("dta run: --drain-ms must not be negative, was -1", "--drain-ms", "-1");
        assertRefused("dta run: --link-wait-ms must not be negative, was -5", "--link-wait-ms", "-5");
        assertRefused("dta run: --burst must be 1..512, was 0", "--burst", "0");
        assertRefused("dta run: --pool-size must be at least twice the burst (64), was 40", "--pool-size", "40");
        assertRefused("dta run: --reports-port must name a port (an ethdev name or a port id)", "--reports-port", "");
        assertRefused("dta run: --collector-port must name a port (an ethdev name or a port id)", "--collector-port",
            " ");
    }

    @Test
    void shouldRefuseAnEalOptionThatTheEalLineSaysAlready()
    {
        assertRefused("dta run: --file-prefix and a --file-prefix in --eal contradict each other: give one",
            "--eal", "--file-prefix=a --no-huge -m 256", "--file-prefix", "b");
        assertRefused("dta run: -l/--lcores and the cores in --eal contradict each other: give one",
            "--eal", "-l 1 --no-huge", "-l", "0");
        assertRefused("dta run: -m/--memory and the memory in --eal contradict each other: give one",
            "--eal", "--no-huge -m 256", "-m", "512");
    }

    @Test
    void shouldSayWhyACountersFileCannotBeCreated() throws Exception
    {
        final Path notADirectory = Files.writeString(dir.resolve("plain-file"), "x");
        final Path path = notADirectory.resolve("translator.counters");
        final UncheckedIOException ex = assertThrows(UncheckedIOException.class,
            () -> CountersFile.create(path, "translator", 4, 1L));
        assertEquals("cannot create counters file " + path + ": " + notADirectory + ": exists and is not a directory",
            ex.getMessage());
    }

    private static void assertRefused(final String message, final String... args)
    {
        final CliRunner.Result r = CliRunner.run(prepend(args));
        assertEquals(2, r.exitCode(), r.err());
        assertEquals(message, r.err().strip());
    }

    private static String[] prepend(final String... args)
    {
        final String[] all = new String[args.length + 1];
        all[0] = "run";
        System.arraycopy(args, 0, all, 1, args.length);
        return all;
    }
}
