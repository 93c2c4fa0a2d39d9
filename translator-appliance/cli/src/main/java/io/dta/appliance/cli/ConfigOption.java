package io.dta.appliance.cli;

import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigException;
import io.dta.config.ConfigLoader;
import io.dta.config.FileErrors;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;

/**
 * The {@code --config FILE} option shared by the commands that run the engine; without it the embedded
 * default configuration is used.
 */
final class ConfigOption
{
    @Option(names = "--config", paramLabel = "FILE",
        description = "translator configuration (YAML or JSON); default: the embedded demo configuration")
    Path file;

    /**
     * Loads and validates the configuration, printing every problem with its key path when it is invalid.
     *
     * @param command the command name for messages.
     * @return the configuration, or null when it was refused (the caller exits with status 2).
     */
    ApplianceConfig load(final String command)
    {
        final PrintWriter err = new PrintWriter(System.err, true);
        return load(command, err);
    }

    /**
     * As {@link #load(String)}, with the messages on {@code err} (a command that prints through picocli's writer):
     * {@code dta COMMAND: FILE: invalid configuration (N problems):}, then one indented line per problem.
     *
     * @param command the command name for messages.
     * @param err     where the messages go.
     * @return the configuration, or null when it was refused (the caller exits with status 2).
     */
    ApplianceConfig load(final String command, final PrintWriter err)
    {
        try
        {
            return null == file ? ConfigDefaults.load() : ConfigLoader.load(file);
        }
        catch (final ConfigException ex)
        {
            if (null != file && ex.getCause() instanceof final IOException io)
            {
                // A file that cannot be read is a file error, worded as every command words one, not a configuration
                // of one problem.
                err.println("dta " + command + ": " + FileErrors.cannotRead(file, io));
                err.flush();
                return null;
            }
            err.println("dta " + command + ": " + (null == file ? "embedded configuration" : file) + ": " +
                ex.getMessage());
            err.flush();
            return null;
        }
    }
}
