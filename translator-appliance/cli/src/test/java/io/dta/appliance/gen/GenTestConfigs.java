package io.dta.appliance.gen;

import io.dta.config.ApplianceConfig;
import io.dta.config.ConfigDefaults;
import io.dta.config.ConfigFormat;
import io.dta.config.ConfigLoader;

/**
 * Configurations for the generator tests besides the built-in demo one.
 */
final class GenTestConfigs
{
    /**
     * Two collectors: A (10.0.0.51) with a Key-Write store of 16-byte slots and list 7; B (10.0.0.52) with a
     * counter store and list 9. No postcard store; redundancy.max 3; reports on UDP port 40050, 2-byte form.
     */
    static final String TWO_COLLECTORS = """
        translator:
          mac: "02:00:0a:00:00:65"
          ip: 10.0.0.101
        reports:
          udpPort: 40050
          baseHeader: "2"
        redundancy:
          max: 3
        collectors:
          - name: a
            mac: "02:00:0a:00:00:33"
            ip: 10.0.0.51
            keyWrite: { localQpn: 0x539, qpn: 0x456, rkey: 0x1234, address: 0x7f0000000000, length: 4096,
                        slotSize: 16, startPsn: 0x100 }
            lists:
              - { id: 7, localQpn: 0x53c, qpn: 0x459, rkey: 0x1237, address: 0x7f0000300000, length: 1024,
                  startPsn: 0x400 }
          - name: b
            mac: "02:00:0a:00:00:34"
            ip: 10.0.0.52
            keyIncrement: { localQpn: 0x53a, qpn: 0x457, rkey: 0x1235, address: 0x7f0000100000, length: 4096,
                            startPsn: 0x200 }
            lists:
              - { id: 9, localQpn: 0x53d, qpn: 0x45a, rkey: 0x1238, address: 0x7f0000400000, length: 4096,
                  startPsn: 0x500 }
        """;

    private GenTestConfigs()
    {
    }

    /**
     * @param baseHeader {@code reports.baseHeader} as written in YAML: "3", "2" or "auto".
     * @return the built-in demo configuration with that base header.
     */
    static ApplianceConfig demo(final String baseHeader)
    {
        return ConfigLoader.load(demoYaml(baseHeader), ConfigFormat.YAML);
    }

    /**
     * @param baseHeader {@code reports.baseHeader} as written in YAML: "3", "2" or "auto".
     * @return the built-in demo configuration's YAML with that base header.
     */
    static String demoYaml(final String baseHeader)
    {
        final String yaml = ConfigDefaults.yaml();
        final String key = "baseHeader: \"3\"";
        if (!yaml.contains(key))
        {
            throw new IllegalStateException("the demo configuration no longer says " + key);
        }
        return yaml.replace(key, "baseHeader: \"" + baseHeader + "\"");
    }

    static ApplianceConfig twoCollectors()
    {
        return ConfigLoader.load(TWO_COLLECTORS, ConfigFormat.YAML);
    }
}
