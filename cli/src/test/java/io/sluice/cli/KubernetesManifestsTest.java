package io.sluice.cli;

import static io.sluice.cli.KubernetesManifests.onlyContainer;
import static io.sluice.cli.KubernetesManifests.selects;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.processor.StateStore;
import org.apache.kafka.streams.state.WindowStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;

import io.fabric8.kubernetes.api.model.Capabilities;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SeccompProfile;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServicePort;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraint;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyIngressRule;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

import io.sluice.config.Settings;
import io.sluice.config.Topics;
import io.sluice.gateway.GatewayConfig;
import io.sluice.processor.ProcessorConfig;
import io.sluice.processor.topology.DeadLetterCounts;
import io.sluice.processor.topology.ProcessorTopology;

/** deploy/kubernetes: valid Kubernetes objects, and what they promise operators holds in them. */
class KubernetesManifestsTest {
    /** The image's user and group (deploy/Dockerfile; ServerImageTest ties the two). */
    static final long IMAGE_UID = 10001;
    private static final long MIB = 1024 * 1024;
    /** The JVM beyond heap and direct buffers: metaspace, code cache, thread stacks, GC structures. */
    private static final long JVM_REST = 256 * MIB;
    /**
     * What one RocksDB instance (a store, or one segment of a window store) holds outside the cache
     * BoundedRocksDbMemory shares: the cache holds the data, index and filter blocks and is charged
     * for the memtables; table readers, per-database and per-column-family structures and flush
     * buffers are not charged. Measured 0.2–0.5 MiB each (rocksdbjni 10.1.3, Kafka Streams' options
     * with BoundedRocksDbMemory's, 100–300 instances with and without data); assumed 1 MiB.
     */
    private static final long OUTSIDE_THE_CACHE_PER_ROCKSDB = MIB;

    static final String KAFKA_SECRET = "sluice-kafka";
    static final String KAFKA_TLS_SECRET = "sluice-kafka-tls";
    static final String KAFKA_TLS_DIRECTORY = "/etc/sluice/kafka";
    /** The CronJob that runs the command line in the cluster (doctor, replay, dead-letters). */
    static final String OPS = "sluice-ops";

    private static KubernetesManifests base;
    private static KubernetesManifests monitoring;

    @BeforeAll
    static void load() throws Exception {
        base = KubernetesManifests.load(KubernetesManifests.BASE);
        monitoring = KubernetesManifests.load(KubernetesManifests.MONITORING);
    }

    @Test
    void everyManifestFileIsInAKustomizationAndReadStrictly() throws Exception {
        for (KubernetesManifests manifests : List.of(base, monitoring)) {
            Set<String> files;
            try (Stream<Path> list = Files.list(manifests.directory())) {
                files = list.map(path -> path.getFileName().toString())
                        .filter(name -> name.endsWith(".yaml") && !name.equals("kustomization.yaml")).collect(Collectors.toSet());
            }
            assertEquals(files, Set.copyOf(manifests.resources()), "files of " + manifests.directory() + " vs its kustomization");
        }
        assertEquals(Map.of("ConfigMap", 1L, "Service", 2L, "Deployment", 1L, "StatefulSet", 1L, "Job", 1L, "CronJob", 1L,
                        "HorizontalPodAutoscaler", 1L, "PodDisruptionBudget", 2L, "NetworkPolicy", 2L),
                base.objects().stream().collect(Collectors.groupingBy(object -> object.getKind(), Collectors.counting())));
    }

    @Test
    void theServiceMonitorIsOnlyInTheMonitoringKustomization() {
        assertTrue(base.all(GenericKubernetesResource.class).isEmpty(), "the default kustomization needs no CRD");
        GenericKubernetesResource serviceMonitor = monitoring.all(GenericKubernetesResource.class).stream()
                .filter(resource -> resource.getKind().equals("ServiceMonitor")).findFirst().orElseThrow();
        assertEquals("ServiceMonitor", serviceMonitor.getKind());
        assertEquals("monitoring.coreos.com/v1", serviceMonitor.getApiVersion());
    }

    @Test
    void everyContainerRunsAsTheImagesUserWithoutPrivileges() {
        base.podTemplates().forEach((workload, template) -> {
            assertEquals(IMAGE_UID, template.getSpec().getSecurityContext().getRunAsUser(), workload);
            assertEquals(Boolean.TRUE, template.getSpec().getSecurityContext().getRunAsNonRoot(), workload);
            for (Container container : containers(template)) {
                String where = workload + " " + container.getName();
                SecurityContext context = container.getSecurityContext();
                assertNotNull(context, where);
                assertEquals(Boolean.TRUE, context.getRunAsNonRoot(), where);
                assertEquals(IMAGE_UID, context.getRunAsUser(), where);
                assertEquals(IMAGE_UID, context.getRunAsGroup(), where);
                assertEquals(Boolean.FALSE, context.getAllowPrivilegeEscalation(), where);
                Optional<Capabilities> capabilities = Optional.ofNullable(context.getCapabilities());
                assertEquals(List.of("ALL"), capabilities.map(Capabilities::getDrop).orElse(null), where + " drops");
                assertEquals(List.of(), capabilities.map(Capabilities::getAdd).orElse(List.of()), where + " adds");
                assertEquals("RuntimeDefault", Optional.ofNullable(context.getSeccompProfile()).map(SeccompProfile::getType).orElse(null),
                        where + " seccomp");
            }
        });
        assertEquals(4, base.podTemplates().size(), "gateway, processor, schema job, ops");
    }

    @Test
    void everyContainerHasAReadOnlyRootAndAnEmptyDirAtTmp() {
        base.podTemplates().forEach((workload, template) -> {
            for (Container container : containers(template)) {
                String where = workload + " " + container.getName();
                assertEquals(Boolean.TRUE, container.getSecurityContext().getReadOnlyRootFilesystem(), where);
                VolumeMount tmp = container.getVolumeMounts().stream().filter(mount -> mount.getMountPath().equals("/tmp"))
                        .findFirst().orElseThrow(() -> new AssertionError(where + " mounts nothing at /tmp"));
                Volume volume = template.getSpec().getVolumes().stream().filter(v -> v.getName().equals(tmp.getName()))
                        .findFirst().orElseThrow(() -> new AssertionError(where + ": no volume " + tmp.getName()));
                assertNotNull(volume.getEmptyDir(), where + ": /tmp is an emptyDir");
            }
        });
    }

    @Test
    void everyContainersMemoryLimitHoldsItsHeapDirectBuffersAndTheRestOfTheJvm() {
        base.podTemplates().forEach((workload, template) -> {
            for (Container container : containers(template)) {
                String where = workload + " " + container.getName();
                long limit = memory(container.getResources().getLimits(), where + " memory limit");
                assertEquals(limit, memory(container.getResources().getRequests(), where + " memory request"),
                        where + ": request = limit, so the pod is not evicted for using what it may use");
                JvmMemory jvm = JvmMemory.of(env(container, "JAVA_OPTS"), where);
                assertTrue(jvm.heap() + jvm.direct() + JVM_REST <= limit,
                        where + ": heap " + jvm.heap() / MIB + " MiB + direct " + jvm.direct() / MIB + " MiB + JVM "
                                + JVM_REST / MIB + " MiB > limit " + limit / MIB + " MiB");
            }
        });
    }

    @Test
    void theGatewaysDirectMemoryHoldsTheRequestsInFlight() {
        Container gateway = onlyContainer(base.servers().get("Deployment/sluice-gateway"));
        long inFlight = new Settings(deployedSettings(gateway)).getLong(GatewayConfig.MAX_IN_FLIGHT_BYTES);
        assertTrue(JvmMemory.of(env(gateway, "JAVA_OPTS"), "gateway").direct() >= inFlight,
                "Netty keeps the bodies being received in direct buffers: " + inFlight + " bytes");
    }

    @Test
    void theProcessorsMemoryLimitHoldsItsJvmAndTheRocksDbBudgetOfItsStores(@TempDir Path stateDir) {
        StatefulSet processor = base.named(StatefulSet.class, "sluice-processor");
        Container container = onlyContainer(processor.getSpec().getTemplate());
        Settings settings = new Settings(deployedSettings(container));
        ProcessorConfig config = ProcessorConfig.from(settings);
        int replicas = processor.getSpec().getReplicas();
        long partitionsPerPod = (settings.getInt(Topics.PARTITIONS) + replicas - 1) / replicas;
        Map<String, Long> rocksDbsPerPartition = ProcessorTopology.rocksDbInstancesAtMost(config.eventTimeHorizon(), config.lateMargin());
        assertEquals(persistentWindowStores(config, stateDir), rocksDbsPerPartition.keySet(),
                "every RocksDB store of the topology, and only those, is counted");
        long storesPerPod = partitionsPerPod * rocksDbsPerPartition.size();
        long rocksDbsPerPod = partitionsPerPod * rocksDbsPerPartition.values().stream().mapToLong(Long::longValue).sum();
        JvmMemory jvm = JvmMemory.of(env(container, "JAVA_OPTS"), "processor");
        // The shared cache (blocks and memtables) is bounded as a whole; what each RocksDB holds outside it is not.
        long needed = jvm.heap() + jvm.direct() + JVM_REST + config.rocksDbMemoryBytes() + rocksDbsPerPod * OUTSIDE_THE_CACHE_PER_ROCKSDB;
        long limit = memory(container.getResources().getLimits(), "processor memory limit");
        assertTrue(needed <= limit, storesPerPod + " RocksDB stores per pod (" + rocksDbsPerPod + " RocksDB instances), RocksDB budget "
                + config.rocksDbMemoryBytes() / MIB + " MiB: " + needed / MIB + " MiB needed > limit " + limit / MIB + " MiB");
        assertEquals(120, storesPerPod, "24 partitions over 3 pods, 15 RocksDB stores each: the figure processor.yaml's comment works with");
        assertEquals(480, rocksDbsPerPod, "4 segments per store: the figure processor.yaml's comment works with");
        assertEquals(2048 * MIB, config.rocksDbMemoryBytes(), "the budget processor.yaml's comment works with");
    }

    /**
     * The names of the processor's RocksDB stores (one of each per partition), all window stores.
     * The topology's description names its stores but not their kind: a test driver builds the
     * real stores, and {@code StateStore.persistent()} tells RocksDB from memory (an in-memory
     * store would live on the heap, which -Xmx bounds).
     */
    private static Set<String> persistentWindowStores(ProcessorConfig config, Path stateDir) {
        Properties props = new Properties();
        props.put(StreamsConfig.APPLICATION_ID_CONFIG, "kubernetes-manifests-test");
        props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
        props.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
        try (TopologyTestDriver driver = new TopologyTestDriver(ProcessorTopology.build(config.kafka().topics(),
                config.eventTimeHorizon(), config.generation(), config.lateMargin(), new DeadLetterCounts()), props)) {
            Map<String, StateStore> stores = driver.getAllStateStores();
            Set<String> persistent = stores.entrySet().stream().filter(store -> store.getValue().persistent())
                    .map(Map.Entry::getKey).collect(Collectors.toCollection(TreeSet::new));
            persistent.forEach(name -> assertTrue(stores.get(name) instanceof WindowStore,
                    name + " is no window store: rocksDbInstancesAtMost counts segments"));
            return persistent;
        }
    }

    @Test
    void theProcessorsStateVolumeIsWritableByTheImagesGroup() {
        StatefulSet processor = base.named(StatefulSet.class, "sluice-processor");
        PodTemplateSpec template = processor.getSpec().getTemplate();
        assertEquals(IMAGE_UID, template.getSpec().getSecurityContext().getFsGroup());
        Container container = onlyContainer(template);
        String stateDir = env(container, "SLUICE_PROCESSOR_STATE_DIR");
        VolumeMount state = container.getVolumeMounts().stream().filter(mount -> stateDir.startsWith(mount.getMountPath() + "/"))
                .findFirst().orElseThrow(() -> new AssertionError("no volume holds " + stateDir));
        assertTrue(processor.getSpec().getVolumeClaimTemplates().stream().anyMatch(claim -> claim.getMetadata().getName().equals(state.getName())),
                stateDir + " is on a persistent volume");
    }

    @Test
    void theProcessorsLivenessWaitsForItsStateRestore() {
        Container processor = onlyContainer(base.servers().get("StatefulSet/sluice-processor"));
        Probe startup = processor.getStartupProbe();
        assertNotNull(startup, "a startupProbe");
        assertEquals("/readyz", startup.getHttpGet().getPath(), "ready once the stores are restored (streams RUNNING)");
        assertEquals("admin", startup.getHttpGet().getPort().getStrVal());
        long seconds = (long) startup.getPeriodSeconds() * startup.getFailureThreshold();
        assertTrue(seconds >= Duration.ofMinutes(15).toSeconds(), "restore may take " + seconds + " s");
    }

    @Test
    void everyServerHasADisruptionBudgetOfOnePod() {
        base.servers().forEach((workload, template) -> {
            List<PodDisruptionBudget> budgets = base.all(PodDisruptionBudget.class).stream()
                    .filter(budget -> selects(budget.getSpec().getSelector(), template.getMetadata().getLabels())).toList();
            assertEquals(1, budgets.size(), workload + ": budgets selecting its pods");
            assertEquals(Integer.valueOf(1), budgets.get(0).getSpec().getMaxUnavailable().getIntVal(), workload);
        });
        assertEquals(2, base.servers().size());
    }

    @Test
    void everyServerSpreadsItsPodsOverNodesAndZones() {
        base.servers().forEach((workload, template) -> {
            List<TopologySpreadConstraint> constraints = template.getSpec().getTopologySpreadConstraints();
            for (String key : List.of("kubernetes.io/hostname", "topology.kubernetes.io/zone")) {
                assertTrue(constraints.stream().anyMatch(c -> c.getTopologyKey().equals(key) && c.getMaxSkew() == 1
                                && selects(c.getLabelSelector(), template.getMetadata().getLabels())),
                        workload + " spreads over " + key);
            }
        });
    }

    @Test
    void theAdminPortsAdmitOnlyNamedMonitoringPeers() {
        base.servers().forEach((workload, template) -> {
            Container container = onlyContainer(template);
            ContainerPort admin = port(container, "admin");
            List<NetworkPolicyIngressRule> rules = ingressRules(template);
            List<NetworkPolicyIngressRule> admitting = rules.stream().filter(rule -> admits(rule, admin)).toList();
            assertFalse(admitting.isEmpty(), workload + ": Prometheus reaches the admin port");
            for (NetworkPolicyIngressRule rule : admitting) {
                List<NetworkPolicyPeer> peers = Optional.ofNullable(rule.getFrom()).orElse(List.of());
                assertFalse(peers.isEmpty(), workload + ": a rule admits port " + admin.getContainerPort() + " from anywhere");
                for (NetworkPolicyPeer peer : peers) {
                    assertEquals(null, peer.getIpBlock(), workload + ": admin port open to addresses");
                    assertTrue(specific(peer.getPodSelector()), workload + ": admin port open to every pod of " + peer);
                    assertTrue(peer.getNamespaceSelector() == null || specific(peer.getNamespaceSelector()),
                            workload + ": admin port open to every namespace");
                }
            }
        });
    }

    @Test
    void theIngestPortIsOpenToEveryone() {
        PodTemplateSpec gateway = base.servers().get("Deployment/sluice-gateway");
        ContainerPort http = port(onlyContainer(gateway), "http");
        assertTrue(ingressRules(gateway).stream().anyMatch(rule -> admits(rule, http)
                && (rule.getFrom() == null || rule.getFrom().isEmpty())), "clients reach port " + http.getContainerPort());
    }

    @Test
    void theGatewaysServiceCarriesOnlyTheIngestPort() {
        Service service = base.named(Service.class, "sluice-gateway");
        assertEquals(List.of("http"), service.getSpec().getPorts().stream().map(port -> port.getTargetPort().getStrVal()).toList());
    }

    @Test
    void theServersStartWithTheSettingsTheyAreDeployedWith() {
        Map<String, PodTemplateSpec> servers = base.servers();
        Map<String, String> gateway = deployedSettings(onlyContainer(servers.get("Deployment/sluice-gateway")));
        // Without the partition key's Secret the gateway refuses to start; with the one the operator made, it starts.
        assertThrows(IllegalArgumentException.class, () -> GatewayConfig.from(new Settings(gateway)));
        gateway.put("SLUICE_PARTITION_KEY", "c2VjcmV0IG9mIHRoZSBvcGVyYXRvcidzIG93bg==");
        GatewayConfig.from(new Settings(gateway));
        ProcessorConfig processor = ProcessorConfig.from(new Settings(deployedSettings(onlyContainer(servers.get("StatefulSet/sluice-processor")))));
        assertEquals(Path.of("/var/lib/sluice/streams"), processor.stateDir());
    }

    /**
     * Kafka's SASL/TLS settings come from one optional Secret of SLUICE_KAFKA_PROPERTY_* variables and
     * the brokers' CA from another, in every server that talks to Kafka: optional, so a cluster
     * without Kafka security (the small overlay, a dev cluster) needs neither.
     */
    @Test
    void everyServerReadsKafkasSecurityFromOptionalSecrets() {
        base.servers().forEach((workload, template) -> {
            Container container = onlyContainer(template);
            assertTrue(container.getEnvFrom().stream().anyMatch(source -> source.getSecretRef() != null
                    && source.getSecretRef().getName().equals(KAFKA_SECRET) && Boolean.TRUE.equals(source.getSecretRef().getOptional())),
                    workload + " takes SLUICE_KAFKA_PROPERTY_* from the optional Secret " + KAFKA_SECRET);
            VolumeMount mount = container.getVolumeMounts().stream().filter(m -> m.getMountPath().equals(KAFKA_TLS_DIRECTORY))
                    .findFirst().orElseThrow(() -> new AssertionError(workload + " mounts nothing at " + KAFKA_TLS_DIRECTORY));
            assertEquals(Boolean.TRUE, mount.getReadOnly(), workload);
            Volume volume = template.getSpec().getVolumes().stream().filter(v -> v.getName().equals(mount.getName())).findFirst().orElseThrow();
            assertEquals(KAFKA_TLS_SECRET, volume.getSecret().getSecretName(), workload);
            assertEquals(Boolean.TRUE, volume.getSecret().getOptional(), workload);
        });
    }

    @Test
    void theSchemaJobReadsTheClickHouseSettingsTheProcessorReads() {
        Container job = onlyContainer(base.named(Job.class, "sluice-schema").getSpec().getTemplate());
        Container processor = onlyContainer(base.servers().get("StatefulSet/sluice-processor"));
        assertEquals(processor.getEnvFrom().stream().filter(source -> source.getSecretRef() == null
                || !source.getSecretRef().getName().equals(KAFKA_SECRET)).toList(), job.getEnvFrom(),
                "the ConfigMap and the ClickHouse password's Secret (not Kafka's: the Job does not talk to Kafka)");
        assertTrue(job.getEnvFrom().stream().anyMatch(source -> source.getSecretRef() != null
                && source.getSecretRef().getName().equals(KubernetesOverlaysTest.PASSWORD_SECRET)));
    }

    /** The ops CronJob is a template for `kubectl create job --from=cronjob/sluice-ops`: applying the base runs nothing. */
    @Test
    void theOpsCronJobNeverRunsByItself() {
        CronJob ops = base.named(CronJob.class, OPS);
        assertEquals(Boolean.TRUE, ops.getSpec().getSuspend());
        assertEquals("Never", ops.getSpec().getJobTemplate().getSpec().getTemplate().getSpec().getRestartPolicy());
    }

    /** Its default command is one of the command line's, the image's entrypoint running it. */
    @Test
    void theOpsJobRunsTheDoctorOfTheCommandLine() {
        Container ops = onlyContainer(opsTemplate());
        assertEquals(List.of("doctor"), ops.getArgs());
        assertEquals(List.of(), Optional.ofNullable(ops.getCommand()).orElse(List.of()), "the image's entrypoint, which runs the command line");
        assertTrue(Usage.TEXT.contains("\n  doctor "), "doctor is in the usage");
    }

    /** doctor --gateway/--processor reads /readyz and /metrics: the admin ports admit only labelled pods of the namespace. */
    @Test
    void theOpsPodReachesTheAdminPortOfEveryServer() {
        Map<String, String> opsLabels = opsTemplate().getMetadata().getLabels();
        base.servers().forEach((workload, template) -> {
            ContainerPort admin = port(onlyContainer(template), "admin");
            assertTrue(ingressRules(template).stream().filter(rule -> admits(rule, admin))
                    .flatMap(rule -> Optional.ofNullable(rule.getFrom()).orElse(List.of()).stream())
                    .anyMatch(peer -> peer.getNamespaceSelector() == null && selects(peer.getPodSelector(), opsLabels)),
                    workload + ": the ops pod " + opsLabels + " reaches port " + admin.getContainerPort());
        });
    }

    /** doctor, replay and dead-letters talk to Kafka and ClickHouse as the processor does: its settings, Secrets and Kafka CA. */
    @Test
    void theOpsPodReadsTheProcessorsSettingsSecretsAndKafkaCa() {
        PodTemplateSpec processor = base.servers().get("StatefulSet/sluice-processor");
        Container ops = onlyContainer(opsTemplate());
        assertEquals(onlyContainer(processor).getEnvFrom(), ops.getEnvFrom());
        VolumeMount kafkaCa = ops.getVolumeMounts().stream().filter(mount -> mount.getMountPath().equals(KAFKA_TLS_DIRECTORY))
                .findFirst().orElseThrow(() -> new AssertionError("the ops pod mounts nothing at " + KAFKA_TLS_DIRECTORY));
        assertEquals(Boolean.TRUE, kafkaCa.getReadOnly());
        Volume volume = opsTemplate().getSpec().getVolumes().stream().filter(v -> v.getName().equals(kafkaCa.getName())).findFirst().orElseThrow();
        assertEquals(KAFKA_TLS_SECRET, volume.getSecret().getSecretName());
        assertEquals(Boolean.TRUE, volume.getSecret().getOptional());
    }

    private static PodTemplateSpec opsTemplate() {
        return base.named(CronJob.class, OPS).getSpec().getJobTemplate().getSpec().getTemplate();
    }

    /** JAVA_OPTS replaces the image's default, so each keeps its exit on the first OutOfMemoryError (a supervisor restarts it). */
    @Test
    void everyJavaProcessExitsOnOutOfMemory() {
        base.podTemplates().forEach((workload, template) -> containers(template).forEach(container ->
                assertTrue(env(container, "JAVA_OPTS").contains("-XX:+ExitOnOutOfMemoryError"), workload)));
    }

    /** The base holds no Secret: `kubectl apply -k` never overwrites the one an operator or a secret store made. */
    @Test
    void theBaseShipsNoSecretSoApplyingItNeverOverwritesOne() {
        assertEquals(List.of(), base.all(Secret.class));
    }

    @Test
    void theConfigMapSaysWhereClientsReachTheGateways() {
        assertTrue(base.named(ConfigMap.class, "sluice").getData().containsKey(PublicUrl.SETTING.name()));
    }

    @Test
    void theConfigMapSaysWhereToListTheTrustedProxies() {
        ConfigMap config = base.named(ConfigMap.class, "sluice");
        assertTrue(config.getData().containsKey(GatewayConfig.TRUSTED_PROXIES.name()));
    }

    @Test
    void everyContainerRunsTheImageTheKustomizationTags() throws Exception {
        JsonNode kustomization = KubernetesManifests.documents(KubernetesManifests.BASE.resolve("kustomization.yaml")).get(0);
        String image = kustomization.at("/images/0/name").asText();
        base.podTemplates().forEach((workload, template) -> containers(template).forEach(container ->
                assertEquals(image, container.getImage().split(":")[0], workload)));
    }

    @Test
    void theServiceMonitorScrapesTheAdminPortOfEveryServer() throws Exception {
        JsonNode serviceMonitor = KubernetesManifests.documents(KubernetesManifests.MONITORING.resolve("servicemonitor.yaml")).stream()
                .filter(document -> document.path("kind").asText().equals("ServiceMonitor")).findFirst().orElseThrow();
        LabelSelector selector = new com.fasterxml.jackson.databind.ObjectMapper().treeToValue(serviceMonitor.at("/spec/selector"), LabelSelector.class);
        List<String> unknown = new ArrayList<>();
        KubernetesManifests.unknownFields(selector, "selector", unknown, 0);
        assertEquals(List.of(), unknown);
        String endpointPort = serviceMonitor.at("/spec/endpoints/0/port").asText();
        assertEquals("/metrics", serviceMonitor.at("/spec/endpoints/0/path").asText());
        List<Service> services = Stream.concat(base.all(Service.class).stream(), monitoring.all(Service.class).stream())
                .filter(service -> selects(selector, service.getMetadata().getLabels())).toList();
        base.servers().forEach((workload, template) -> {
            ContainerPort admin = port(onlyContainer(template), "admin");
            assertTrue(services.stream().anyMatch(service -> service.getSpec().getSelector().entrySet().stream()
                            .allMatch(e -> e.getValue().equals(template.getMetadata().getLabels().get(e.getKey())))
                            && service.getSpec().getPorts().stream().anyMatch(port -> port.getName().equals(endpointPort)
                            && targets(port, admin))),
                    workload + ": a selected Service leads port '" + endpointPort + "' to the admin port");
        });
    }

    private static boolean targets(ServicePort port, ContainerPort container) {
        IntOrString target = port.getTargetPort() == null ? new IntOrString(port.getPort()) : port.getTargetPort();
        return container.getName().equals(target.getStrVal()) || Objects.equals(container.getContainerPort(), target.getIntVal());
    }

    private static List<Container> containers(PodTemplateSpec template) {
        List<Container> all = new ArrayList<>(Optional.ofNullable(template.getSpec().getInitContainers()).orElse(List.of()));
        all.addAll(template.getSpec().getContainers());
        return all;
    }

    private static ContainerPort port(Container container, String name) {
        return container.getPorts().stream().filter(port -> port.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " has no port " + name));
    }

    /** The ingress rules of every NetworkPolicy selecting these pods; fails when none isolates them. */
    private static List<NetworkPolicyIngressRule> ingressRules(PodTemplateSpec template) {
        List<NetworkPolicy> policies = base.all(NetworkPolicy.class).stream()
                .filter(policy -> selects(policy.getSpec().getPodSelector(), template.getMetadata().getLabels())
                        && policy.getSpec().getPolicyTypes().contains("Ingress")).toList();
        assertFalse(policies.isEmpty(), template.getMetadata().getLabels() + ": no NetworkPolicy isolates these pods");
        return policies.stream().flatMap(policy -> Optional.ofNullable(policy.getSpec().getIngress()).orElse(List.of()).stream()).toList();
    }

    /** Whether a rule lets traffic reach this port (a rule without ports admits every port). */
    private static boolean admits(NetworkPolicyIngressRule rule, ContainerPort port) {
        if (rule.getPorts() == null || rule.getPorts().isEmpty()) {
            return true;
        }
        return rule.getPorts().stream().anyMatch(p -> p.getPort() == null
                || port.getName().equals(p.getPort().getStrVal())
                || Objects.equals(port.getContainerPort(), p.getPort().getIntVal())
                || p.getEndPort() != null && p.getPort().getIntVal() != null
                && p.getPort().getIntVal() <= port.getContainerPort() && port.getContainerPort() <= p.getEndPort());
    }

    /** A selector that names labels (an empty one selects everything). */
    private static boolean specific(LabelSelector selector) {
        return selector != null && (selector.getMatchLabels() != null && !selector.getMatchLabels().isEmpty()
                || selector.getMatchExpressions() != null && !selector.getMatchExpressions().isEmpty());
    }

    /** What the container's SLUICE_* settings are: the ConfigMap, then its own literal env values. */
    private static Map<String, String> deployedSettings(Container container) {
        Map<String, String> values = new HashMap<>(base.named(ConfigMap.class, "sluice").getData());
        for (EnvVar var : container.getEnv()) {
            if (var.getValue() != null) {
                values.put(var.getName(), var.getValue());
            }
        }
        return values;
    }

    private static String env(Container container, String name) {
        return container.getEnv().stream().filter(var -> var.getName().equals(name)).map(EnvVar::getValue).findFirst()
                .orElseThrow(() -> new AssertionError(container.getName() + " sets no " + name));
    }

    private static long memory(Map<String, Quantity> resources, String what) {
        Quantity quantity = resources == null ? null : resources.get("memory");
        assertNotNull(quantity, what);
        return Quantity.getAmountInBytes(quantity).longValueExact();
    }

    /** The heap and direct-memory ceilings that JAVA_OPTS sets (both must be set: a percentage says nothing fixed). */
    record JvmMemory(long heap, long direct) {
        private static final Pattern HEAP = Pattern.compile("(?:^|\\s)-Xmx(\\d+)([kKmMgG])(?:\\s|$)");
        private static final Pattern DIRECT = Pattern.compile("(?:^|\\s)-XX:MaxDirectMemorySize=(\\d+)([kKmMgG])(?:\\s|$)");

        static JvmMemory of(String javaOpts, String where) {
            return new JvmMemory(bytes(HEAP, javaOpts, where), bytes(DIRECT, javaOpts, where));
        }

        private static long bytes(Pattern pattern, String javaOpts, String where) {
            Matcher matcher = pattern.matcher(javaOpts);
            assertTrue(matcher.find(), where + ": JAVA_OPTS '" + javaOpts + "' lacks " + pattern);
            long unit = switch (Character.toLowerCase(matcher.group(2).charAt(0))) {
                case 'k' -> 1024L;
                case 'm' -> MIB;
                default -> 1024 * MIB;
            };
            return new BigDecimal(matcher.group(1)).longValueExact() * unit;
        }
    }
}
