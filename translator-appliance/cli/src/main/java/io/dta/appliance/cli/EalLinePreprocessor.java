package io.dta.appliance.cli;

import picocli.CommandLine.IParameterPreprocessor;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;

import java.util.Map;
import java.util.Stack;

/**
 * Takes the argument after {@code --eal} as its value whatever it looks like. An EAL line starts with a dash
 * ({@code --eal "-l 1 -a 0000:3b:00.0"}), and picocli refuses a value that resembles one of the command's own options
 * ("Expected parameter for option '--eal' but found '-l 1 ...'"): {@code dta run} has {@code -l} and {@code -m} of its
 * own, so the example its help gives was refused (and so was {@code --eal="-l 1"}).
 */
public final class EalLinePreprocessor implements IParameterPreprocessor
{
    /**
     * {@inheritDoc}
     */
    @Override
    public boolean preprocess(
        final Stack<String> args, final CommandSpec commandSpec, final ArgSpec argSpec, final Map<String, Object> info)
    {
        if (args.isEmpty() || (" ".equals(info.get("separator")) && null != commandSpec.findOption(args.peek())))
        {
            // Nothing follows, or one of the command's own options does (--eal --json): picocli's own "missing
            // parameter" message, not an EAL line that swallowed an option of dta.
            return false;
        }
        if (!String.valueOf((Object)argSpec.getValue()).isEmpty())
        {
            // picocli's "should be specified only once", which a preprocessed option bypasses.
            throw new ParameterException(commandSpec.commandLine(),
                "option '--eal' (ARGS) should be specified only once");
        }
        // The next argument, or the value attached with '=' (which picocli has put back on top of the stack).
        argSpec.setValue(args.pop());
        return true;
    }
}
