package io.dta.appliance.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.dta.appliance.connect.ConnectionCounter;
import io.dta.appliance.engine.EngineCounter;
import io.dta.appliance.engine.EngineCounters;
import io.dta.appliance.stat.CountersFile;
import io.dta.collector.responder.ResponderCounter;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The naming rule of docs/naming.md, checked over the {@code --json} output of every command that has one, run
 * in-process as a user runs them: every key is camelCase; a key means one thing everywhere, so it has one JSON type
 * wherever it appears; every counter is spelt as the camelCase of its name, whichever command prints it; a value
 * meant for programs is data, not a sentence.
 */
class JsonNamingTest
{
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern CAMEL_CASE = Pattern.compile("[a-z][a-zA-Z0-9]*");
    /** Spellings that once named a concept another key names; none may come back. */
    private static final Map<String, String> FORMER_SPELLINGS = Map.of(
        "qps", "queuePairs",
        "dropsByReason", "drops",
        "otherFramesSkipped", "otherFrames",
        "nakResyncs", "nakSequenceErrorsIn",
        "framesPerSecond", "roceFramesOutPerSecond",
        "droppedBacklogFull", "operationsDroppedBacklogFull");
    /**
     * Keys whose string value is for people by design: a command line, a sentence that says what failed, and the
     * names the machine gives itself in a benchmark's context (JVM, CPU model, kernel).
     */
    private static final Set<String> WORDED = Set.of("command", "summary", "failure", "problem", "error", "file", "in",
        "jvm", "cpuModel", "kernel");

    @TempDir
    static Path dir;
    private static Map<String, List<JsonNode>> outputs;

    @BeforeAll
    static void runEveryCommand() throws Exception
    {
        outputs = outputs();
    }

    @Test
    void shouldNameEveryFieldOfEveryCommandsJsonByOneRule()
    {
        final Map<String, Set<String>> typesByKey = new TreeMap<>();
        final Map<String, Set<String>> commandsByKey = new TreeMap<>();
        outputs.forEach((command, documents) ->
        {
            for (final JsonNode document : documents)
            {
                walk(command, "", document, typesByKey, commandsByKey);
            }
        });
        typesByKey.forEach((key, types) -> assertEquals(1, types.size(),
            "key " + key + " has one meaning, so one JSON type: " + types + " in " + commandsByKey.get(key)));
        FORMER_SPELLINGS.forEach((former, key) -> assertFalse(typesByKey.containsKey(former),
            former + " is spelt " + key + ": " + commandsByKey.get(former)));
    }

    @Test
    void shouldSpellEveryCounterAsTheCamelCaseOfItsNameInEveryCommand()
    {
        final Set<String> engine = camelNames(EngineCounter.values());
        final Set<String> responder = camelNames(ResponderCounter.values());
        final Set<String> connection = camelNames(ConnectionCounter.values());

        final JsonNode replay = outputs.get("replay").get(0);
        final Set<String> replayCounters = keys(replay.get("drops"));
        replayCounters.addAll(keys(replay.get("counters")));
        assertEquals(engine, replayCounters, "dta replay lists every engine counter, 0 included");
        assertEquals(responder, keys(outputs.get("collector").get(0).get("counters")));
        assertEquals(connection, keys(outputs.get("demo --negotiate").get(0).get("connections").get("counters")));
        assertEquals(engine, keys(outputs.get("stat").get(0).get("counters")),
            "dta stat spells the engine's counters as dta replay does, not by their labels");
        for (final String command : List.of("demo", "bench --in", "bench --primitive"))
        {
            final JsonNode drops = command.equals("demo") ? outputs.get(command).get(0).get("translator").get("drops") :
                outputs.get(command).get(0).get("drops");
            assertTrue(engine.containsAll(keys(drops)), command + ": " + drops);
        }
        assertTrue(responder.containsAll(keys(outputs.get("demo").get(0).get("collectorCounters"))));
    }

    private static Map<String, List<JsonNode>> outputs() throws Exception
    {
        final Map<String, List<JsonNode>> out = new TreeMap<>();
        final Path reports = dir.resolve("r.pcap");
        final Path truth = dir.resolve("truth.json");
        out.put("gen", json(true, "gen", "--out", reports.toString(), "--reports", "3000", "--mix",
            "keywrite=2,keyincrement=1,append=1,postcard=1,sketch=1", "--bad", "0.05", "--truth", truth.toString(),
            "--no-progress", "--json"));
        out.put("gen --truth", List.of(JSON.readTree(Files.readString(truth))));
        final Path roce = dir.resolve("roce.pcap");
        out.put("replay", json(true, "replay", "--in", reports.toString(), "--out", roce.toString(), "--json"));
        final Path responses = dir.resolve("responses.pcap");
        out.put("collector", json(true, "collector", "--in", roce.toString(), "--out", responses.toString(),
            "--store", dir.resolve("offline").toString(), "--json"));
        final List<JsonNode> decoded = new ArrayList<>();
        for (final Path capture : List.of(reports, roce, responses))
        {
            decoded.addAll(json(false, "decode", capture.toString(), "--json"));
        }
        out.put("decode", decoded);
        final Path store = dir.resolve("demo");
        final List<JsonNode> demo = json(true, "demo", "--reports", "3000", "--store", store.toString(), "--json");
        out.put("demo", demo);
        out.put("demo --negotiate", json(true, "demo", "--negotiate", "--reports", "500", "--json"));
        final List<JsonNode> queries = new ArrayList<>();
        for (final JsonNode query : demo.get(0).get("queries"))
        {
            // The demo's own sample queries, as a user would copy them, with the demo's store.
            final List<String> args = new ArrayList<>(Arrays.asList(query.get("command").asText().split(" ")));
            args.remove(0);
            args.addAll(1, List.of("--store", store.toString()));
            args.add("--json");
            queries.addAll(json(true, args.toArray(String[]::new)));
        }
        out.put("query", queries);
        out.put("bench --primitive", json(true, "bench", "--primitive", "keywrite", "--reports", "20000",
            "--warmup", "20000", "--json"));
        out.put("bench sketch", json(true, "bench", "--primitive", "sketch", "--reports", "20000", "--warmup",
            "20000", "--json"));
        out.put("bench --in", json(true, "bench", "--in", reports.toString(), "--reports", "20000", "--warmup",
            "20000", "--json"));
        out.put("stat", stat());
        return out;
    }

    private static List<JsonNode> stat() throws Exception
    {
        final Path path = dir.resolve("translator.counters");
        try (CountersFile file = CountersFile.create(path, "translator", EngineCounters.count(), 1L))
        {
            new EngineCounters(file.manager()).publish();
            return json(true, "stat", "--counters", path.toString(), "--json", "--all");
        }
    }

    private static List<JsonNode> json(final boolean single, final String... args) throws Exception
    {
        final CliRunner.Result r = CliRunner.run(args);
        assertEquals(0, r.exitCode(), String.join(" ", args) + ": " + r.err());
        final List<JsonNode> documents = new ArrayList<>();
        for (final String line : r.out().split("\n"))
        {
            if (!line.isBlank())
            {
                documents.add(JSON.readTree(line));
            }
        }
        assertTrue(!documents.isEmpty() && (!single || 1 == documents.size()), String.join(" ", args) + ": " + r.out());
        return documents;
    }

    private static void walk(
        final String command, final String path, final JsonNode node, final Map<String, Set<String>> typesByKey,
        final Map<String, Set<String>> commandsByKey)
    {
        if (node.isArray())
        {
            node.forEach(element -> walk(command, path + "[]", element, typesByKey, commandsByKey));
            return;
        }
        if (!node.isObject())
        {
            return;
        }
        for (final Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();)
        {
            final Map.Entry<String, JsonNode> field = it.next();
            final String key = field.getKey();
            final JsonNode value = field.getValue();
            final String where = command + " " + path + "." + key;
            assertTrue(CAMEL_CASE.matcher(key).matches(), "not camelCase: " + where);
            if (!value.isNull())
            {
                typesByKey.computeIfAbsent(key, k -> new HashSet<>()).add(value.getNodeType().name());
                commandsByKey.computeIfAbsent(key, k -> new HashSet<>()).add(command);
            }
            if (value.isTextual() && !WORDED.contains(key))
            {
                assertTrue(value.asText().split(" ").length <= 3, "a value for programs, not a sentence: " + where +
                    " = " + value);
            }
            walk(command, path + "." + key, value, typesByKey, commandsByKey);
        }
    }

    private static Set<String> keys(final JsonNode object)
    {
        final Set<String> keys = new HashSet<>();
        object.fieldNames().forEachRemaining(keys::add);
        return keys;
    }

    /** The camelCase of each constant, worked out here independently of the production code. */
    private static Set<String> camelNames(final Enum<?>[] constants)
    {
        final Set<String> names = new HashSet<>();
        for (final Enum<?> constant : constants)
        {
            final String[] words = constant.name().toLowerCase(Locale.ROOT).split("_");
            final StringBuilder name = new StringBuilder(words[0]);
            for (int i = 1; i < words.length; i++)
            {
                name.append(Character.toUpperCase(words[i].charAt(0))).append(words[i].substring(1));
            }
            names.add(name.toString());
        }
        return names;
    }
}
