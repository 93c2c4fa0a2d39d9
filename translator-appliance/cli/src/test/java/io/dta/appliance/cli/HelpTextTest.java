package io.dta.appliance.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A command list ({@code dta --help}, {@code dta query --help}) shows each command by the first line of its header,
 * or of its description when it has none: that line must be a whole sentence, never one cut in the middle.
 */
class HelpTextTest
{
    @Test
    void shouldSummariseEveryCommandInAWholeSentence()
    {
        final List<String> cut = new ArrayList<>();
        walk(DtaCommand.newCommandLine(), "dta", cut);
        assertTrue(cut.isEmpty(), "summaries cut mid-sentence: " + cut);
    }

    private static void walk(final CommandLine command, final String name, final List<String> cut)
    {
        for (final CommandLine sub : command.getSubcommands().values())
        {
            final CommandLine.Model.UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
            final String[] lines = usage.header().length > 0 ? usage.header() : usage.description();
            final String summary = lines.length > 0 ? lines[0].strip() : "";
            if (!summary.endsWith("."))
            {
                cut.add(name + " " + sub.getCommandName() + ": " + summary);
            }
            walk(sub, name + " " + sub.getCommandName(), cut);
        }
    }
}
