package io.dta.appliance.gate;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The arguments each round of a gate runs {@code dta bench} with: the gate's own as given, less the options that
 * belong to the gate ({@code --baseline}, {@code --max-regression}, {@code --report}, {@code --rounds},
 * {@code --cpu}, {@code --json}).
 */
public final class RoundArgs
{
    private static final Set<String> GATE_OPTIONS_WITH_VALUE =
        Set.of("--baseline", "--max-regression", "--report", "--rounds", "--cpu");
    private static final Set<String> GATE_FLAGS = Set.of("--json");

    private RoundArgs()
    {
    }

    /**
     * @param commandLine the whole {@code dta} command line ({@code bench} and what follows it).
     * @return the arguments after {@code bench}, without the gate's options.
     */
    public static List<String> of(final List<String> commandLine)
    {
        final int bench = commandLine.indexOf("bench");
        final List<String> args = new ArrayList<>();
        for (int i = bench + 1; i < commandLine.size(); i++)
        {
            final String arg = commandLine.get(i);
            final int eq = arg.indexOf('=');
            final String name = eq > 0 ? arg.substring(0, eq) : arg;
            if (GATE_FLAGS.contains(name))
            {
                continue;
            }
            if (GATE_OPTIONS_WITH_VALUE.contains(name))
            {
                i += eq > 0 ? 0 : 1;
                continue;
            }
            args.add(arg);
        }
        return args;
    }
}
