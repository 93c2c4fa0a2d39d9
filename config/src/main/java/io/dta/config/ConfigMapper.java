package io.dta.config;

import java.util.List;

/**
 * Maps a {@link ConfigNode} tree onto the settings records, collecting every problem with its key path instead of
 * stopping at the first: the global sections ({@link SettingsMapper}), the collectors ({@link CollectorMapper}), then
 * the rules across them ({@link CrossChecks}, {@link ResourceBudgets}), which run after the whole tree has been read
 * and only on values that were themselves valid, so one mistake is reported once rather than as a cascade.
 */
final class ConfigMapper
{
    private final ConfigProblems problems = new ConfigProblems();

    ApplianceConfig map(final ConfigNode root)
    {
        if (!(root instanceof ConfigNode.MapNode rootMap))
        {
            throw new ConfigException(List.of("(document): expected a mapping at the top level, got " +
                ConfigNode.describe(root)));
        }
        final ConfigSection top = new ConfigSection(problems, "", rootMap.entries());
        final SettingsMapper settings = new SettingsMapper(problems);

        final TranslatorConfig translator = settings.translator(top.section("translator", true));
        final ReportsConfig reports = settings.reports(top.sectionOrEmpty("reports"));
        final RedundancyConfig redundancy = settings.redundancy(top.sectionOrEmpty("redundancy"));
        final AppendConfig append = settings.append(top.sectionOrEmpty("append"));
        final PostcardsConfig postcards = settings.postcards(top.sectionOrEmpty("postcards"));
        final AcksConfig acks = settings.acks(top.sectionOrEmpty("acks"));
        final ResyncConfig resync = settings.resync(top.sectionOrEmpty("resync"));
        final EssentialConfig essential = settings.essential(top.sectionOrEmpty("essential"));
        final ConnectionConfig connection = settings.connection(top.sectionOrEmpty("connection"), acks);
        final WorkersConfig workers = settings.workers(top.sectionOrEmpty("workers"));
        final int batchSize = problems.has("append.batchSize") ? -1 : append.batchSize();
        final int backlog = problems.has("essential.backlog") ? -1 : essential.backlog();
        final List<CollectorConfig> collectors = new CollectorMapper(problems).collectors(top, batchSize, backlog);
        top.finish();

        final CrossChecks crossChecks = new CrossChecks(problems);
        crossChecks.crossChecks(translator, collectors);
        final ResourceBudgets budgets = new ResourceBudgets(problems);
        budgets.essentialRingBudget(collectors, backlog);
        budgets.sketchStateBudget(collectors);
        crossChecks.autoBaseHeaderNeedsOneKeyWriteSize(reports, collectors);

        if (!problems.isEmpty())
        {
            throw new ConfigException(problems.list());
        }
        final ApplianceConfig config = new ApplianceConfig(
            translator, reports, redundancy, append, postcards, acks, resync, essential, collectors, connection,
            workers);
        final List<String> workerProblems = config.workerProblems(workers.count());
        if (!workerProblems.isEmpty())
        {
            throw new ConfigException(workerProblems);
        }
        return config;
    }
}
