package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigException;
import io.dta.config.ConfigFormat;
import io.dta.config.ConfigLoader;
import io.dta.config.EffectiveConfig;
import io.dta.config.FileErrors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code dta config}: checks a configuration file before a (re)start, and shows what the appliance would run with.
 */
@Command(
    name = "config",
    mixinStandardHelpOptions = true,
    description = "Check a configuration file, or show the configuration it gives with every default filled in.",
    subcommands = { ConfigCommand.Check.class, ConfigCommand.Show.class })
public final class ConfigCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * {@inheritDoc}
     */
    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required: check or show");
    }

    /**
     * {@code dta config check}: every problem of the file with its key path, exit 0 (valid) or 2 (not).
     */
    @Command(
        name = "check",
        mixinStandardHelpOptions = true,
        description = {
            "Validate a configuration file as dta run, dta collector and the other commands load it, without starting " +
                "anything: every problem is listed with its key path (for ExecStartPre= of a service unit).",
            "Exit status: 0 when the configuration is valid, 2 when it is not or the file cannot be read." })
    static final class Check implements Callable<Integer>
    {
        @Option(names = "--config", required = true, paramLabel = "FILE",
            description = "the configuration file (YAML or JSON)")
        Path file;

        @Option(names = "--json", description = "one JSON object: file, valid, collectors, regions and problems " +
            "(each with path and reason)")
        boolean json;

        /**
         * {@inheritDoc}
         */
        @Override
        public Integer call() throws IOException
        {
            ApplianceConfig config = null;
            List<String> problems = List.of();
            boolean unreadable = false;
            try
            {
                config = ConfigLoader.load(file);
            }
            catch (final ConfigException ex)
            {
                unreadable = ex.getCause() instanceof IOException;
                problems = unreadable ? List.of(FileErrors.cannotRead(file, (IOException)ex.getCause())) : ex.problems();
            }
            if (json)
            {
                System.out.println(new ObjectMapper().writeValueAsString(report(config, problems, unreadable)));
            }
            else if (null != config)
            {
                System.out.println(file + ": valid (" + count(config.collectors().size(), "collector") + ", " +
                    count(regions(config), "region") + ")");
            }
            else if (unreadable)
            {
                System.err.println("dta config check: " + problems.getFirst());
            }
            else
            {
                System.err.println(file + ": invalid configuration (" + count(problems.size(), "problem") + "):");
                problems.forEach(p -> System.err.println("  " + p));
            }
            return null == config ? 2 : 0;
        }

        private ObjectNode report(final ApplianceConfig config, final List<String> problems, final boolean unreadable)
        {
            final ObjectNode root = new ObjectMapper().createObjectNode();
            root.put("file", file.toString());
            root.put("valid", null != config);
            if (null != config)
            {
                root.put("collectors", config.collectors().size());
                root.put("regions", regions(config));
            }
            final ArrayNode list = root.putArray("problems");
            for (final String problem : problems)
            {
                // "path: reason"; a file that cannot be read is a problem of the file itself.
                final int colon = problem.indexOf(": ");
                final boolean keyed = !unreadable && colon > 0;
                list.addObject()
                    .put("path", keyed ? problem.substring(0, colon) : file.toString())
                    .put("reason", keyed ? problem.substring(colon + 2) : problem);
            }
            return root;
        }

        private static int regions(final ApplianceConfig config)
        {
            return config.collectors().stream().mapToInt(c -> c.regions().size()).sum();
        }

        private static String count(final int n, final String noun)
        {
            return n + " " + noun + (1 == n ? "" : "s");
        }
    }

    /**
     * {@code dta config show}: the effective configuration, defaults filled in.
     */
    @Command(
        name = "show",
        mixinStandardHelpOptions = true,
        description = {
            "Print the configuration a file gives, every default filled in, in the file's schema: what dta run would " +
                "run with. The output loads as a configuration file itself.",
            "Exit status: 0, or 2 when the configuration is invalid (its problems listed as by dta config check)." })
    static final class Show implements Callable<Integer>
    {
        @CommandLine.Mixin
        ConfigOption config;

        @Option(names = "--format", defaultValue = "yaml", paramLabel = "yaml|json",
            description = "output syntax (default: ${DEFAULT-VALUE})")
        ConfigFormat format;

        /**
         * {@inheritDoc}
         */
        @Override
        public Integer call()
        {
            final ApplianceConfig loaded = config.load("config show");
            if (null == loaded)
            {
                return 2;
            }
            System.out.print(EffectiveConfig.write(loaded, format));
            System.out.flush();
            return 0;
        }
    }
}
