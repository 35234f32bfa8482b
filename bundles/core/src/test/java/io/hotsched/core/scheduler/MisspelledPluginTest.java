package io.hotsched.core.scheduler;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.hotsched.core.config.ConfigParser;
import io.hotsched.core.support.SchedulerFixture;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A misspelled plugin name pauses its profile, and the reload says which name and what it is near. */
class MisspelledPluginTest {

    @Test
    void aNearMissNamesTheNearestKnownPlugins() throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            f.start(SchedulerFixture.BASE);
            String typo = SchedulerFixture.BASE.replace("- name: NodeResourcesFit", "- name: NodeResourceFit");

            List<String> paused = f.scheduler.reload(ConfigParser.parse(typo, "scheduler.yaml"));

            assertEquals(
                    List.of("Profile default-scheduler paused: waiting for plugin(s) NodeResourceFit; no installed"
                            + " bundle provides NodeResourceFit, did you mean NodeResourcesFit?"),
                    paused);
        }
    }

    @Test
    void aPluginNotYetDeployedIsOnlyWaitedFor() throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            f.start(SchedulerFixture.BASE);

            List<String> paused = f.scheduler.reload(
                    ConfigParser.parse(SchedulerFixture.withPlugins("MyTeamsScorer"), "scheduler.yaml"));

            assertEquals(List.of("Profile default-scheduler paused: waiting for plugin(s) MyTeamsScorer"), paused);
        }
    }

    @Test
    void aServedConfigurationHasNothingToSay() throws Exception {
        try (SchedulerFixture f = new SchedulerFixture().withBasePlugins()) {
            f.start(SchedulerFixture.BASE);

            assertEquals(List.of(), f.scheduler.reload(ConfigParser.parse(SchedulerFixture.BASE, "scheduler.yaml")));
        }
    }
}
