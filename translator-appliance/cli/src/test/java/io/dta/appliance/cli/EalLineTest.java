package io.dta.appliance.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine.ParseResult;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code --eal LINE} takes the next argument whatever it looks like: an EAL line starts with a dash, and picocli
 * refused one that resembled an option of the command ({@code dta run --eal "-l 1 -a 0000:3b:00.0"}, the example of
 * its own help, failed with "Expected parameter for option '--eal'"). Parsed only: nothing starts an EAL.
 */
class EalLineTest
{
    @Test
    void shouldTakeALineThatStartsWithAnOptionOfTheCommand()
    {
        assertEal("-l 1 -a 0000:3b:00.0 --file-prefix=dta", "run", "--eal", "-l 1 -a 0000:3b:00.0 --file-prefix=dta");
        assertEal("-m 512 --vdev=net_null0", "collector", "--store", "s", "--port", "net_null0", "--eal",
            "-m 512 --vdev=net_null0");
        assertEal("-l 0", "bench", "--io", "dpdk", "--primitive", "keywrite", "--eal", "-l 0");
        assertEal("--huge-unlink", "replay", "--in", "a.pcap", "--out", "b.pcap", "--io", "dpdk", "--eal",
            "--huge-unlink");
    }

    @Test
    void shouldKeepTheOtherFormsAndWhatFollows()
    {
        final ParseResult attached = DtaCommand.newCommandLine().parseArgs("run", "--eal=-l 2", "-m", "128");
        assertEquals("-l 2", eal(attached));
        assertEquals(Integer.valueOf(128), attached.subcommand().matchedOptionValue("-m", 0));
        final ParseResult plain = DtaCommand.newCommandLine().parseArgs("run", "--eal", "--no-pci", "-l", "3");
        assertEquals("--no-pci", eal(plain));
        assertEquals("3", plain.subcommand().matchedOptionValue("-l", ""));
    }

    @Test
    void shouldStillSayThatALastEalHasNoLine()
    {
        final CliRunner.Result r = CliRunner.run("run", "--eal");
        assertEquals(2, r.exitCode(), r.err());
        assertTrue(r.err().contains("Missing required parameter for option '--eal'"), r.err());
    }

    @Test
    void shouldLeaveAFollowingDtaOptionAndASecondEalToPicocli()
    {
        final CliRunner.Result swallowed = CliRunner.run("replay", "--io", "dpdk", "--eal", "--json", "--in", "a.pcap",
            "--out", "b.pcap");
        assertEquals(2, swallowed.exitCode(), swallowed.err());
        assertTrue(swallowed.err().contains("Expected parameter for option '--eal' but found '--json'"),
            swallowed.err());
        final CliRunner.Result twice = CliRunner.run("run", "--eal", "-l 1", "--eal", "-l 2");
        assertEquals(2, twice.exitCode(), twice.err());
        assertTrue(twice.err().contains("option '--eal' (ARGS) should be specified only once"), twice.err());
        assertEquals("", eal(DtaCommand.newCommandLine().parseArgs("run", "--eal=")));
    }

    private static void assertEal(final String expected, final String... args)
    {
        assertEquals(expected, eal(DtaCommand.newCommandLine().parseArgs(args)));
    }

    private static String eal(final ParseResult result)
    {
        // The value the command will read (a preprocessed option is not among picocli's matched ones).
        return result.subcommand().commandSpec().findOption("--eal").getValue();
    }
}
