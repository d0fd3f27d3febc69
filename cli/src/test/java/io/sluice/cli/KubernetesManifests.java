package io.sluice.cli;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;

/**
 * One kustomization directory of deploy/kubernetes, read into the Kubernetes API's types (fabric8's
 * model of it): every document of every listed resource must be a kind named here, carry that
 * kind's apiVersion, and hold only fields the API defines, with values of their types. The model
 * keeps unknown fields aside (additionalProperties) instead of refusing them, so they are looked
 * for in every object read.
 */
record KubernetesManifests(Path directory, List<String> resources, List<HasMetadata> objects) {
    static final Path BASE = Path.of("..", "deploy", "kubernetes");
    static final Path MONITORING = BASE.resolve("monitoring");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
            "ConfigMap", ConfigMap.class, "Secret", Secret.class, "Service", Service.class,
            "Deployment", Deployment.class, "StatefulSet", StatefulSet.class, "Job", Job.class, "CronJob", CronJob.class,
            "HorizontalPodAutoscaler", HorizontalPodAutoscaler.class, "PodDisruptionBudget", PodDisruptionBudget.class,
            "NetworkPolicy", NetworkPolicy.class);

    /** Reads {@code directory}'s kustomization.yaml and the resources it lists. */
    static KubernetesManifests load(Path directory) throws IOException {
        JsonNode kustomization = YAML.readTree(directory.resolve("kustomization.yaml").toFile());
        List<String> resources = new ArrayList<>();
        kustomization.path("resources").forEach(resource -> resources.add(resource.asText()));
        List<HasMetadata> objects = new ArrayList<>();
        for (String resource : resources) {
            for (JsonNode document : documents(directory.resolve(resource))) {
                objects.add(typed(document, resource));
            }
        }
        return new KubernetesManifests(directory, List.copyOf(resources), List.copyOf(objects));
    }

    /** Every YAML document of a file, as written. */
    static List<JsonNode> documents(Path file) throws IOException {
        List<JsonNode> documents = new ArrayList<>();
        for (var reader = YAML.readerFor(JsonNode.class).<JsonNode>readValues(Files.readString(file)); reader.hasNext(); ) {
            JsonNode document = reader.next();
            if (document != null && !document.isNull() && !document.isMissingNode()) {
                documents.add(document);
            }
        }
        return documents;
    }

    private static HasMetadata typed(JsonNode document, String file) throws IOException {
        String kind = document.path("kind").asText();
        if (kind.equals("ServiceMonitor") || kind.equals("PrometheusRule")) { // the Prometheus Operator's, not the API's: checked by their own tests
            return YAML.treeToValue(document, GenericKubernetesResource.class);
        }
        Class<? extends HasMetadata> type = KINDS.get(kind);
        if (type == null) {
            throw new AssertionError(file + ": kind '" + kind + "' is not one the manifests are checked as");
        }
        String apiVersion = HasMetadata.getApiVersion(type);
        if (!apiVersion.equals(document.path("apiVersion").asText())) {
            throw new AssertionError(file + ": " + kind + " is " + apiVersion + ", not " + document.path("apiVersion").asText());
        }
        HasMetadata object = YAML.treeToValue(document, type);
        List<String> unknown = new ArrayList<>();
        unknownFields(object, kind + "/" + object.getMetadata().getName(), unknown, 0);
        if (!unknown.isEmpty()) {
            throw new AssertionError(file + ": fields the Kubernetes API does not have: " + unknown);
        }
        return object;
    }

    /** Collects every non-empty additionalProperties under {@code value}, by path. */
    static void unknownFields(Object value, String path, List<String> found, int depth) {
        if (value == null || depth > 40) {
            return;
        }
        if (value instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                unknownFields(list.get(i), path + "[" + i + "]", found, depth + 1);
            }
            return;
        }
        if (value instanceof Map<?, ?> map) {
            map.forEach((key, child) -> unknownFields(child, path + "." + key, found, depth + 1));
            return;
        }
        if (!value.getClass().getName().startsWith("io.fabric8.kubernetes.api.model.")) {
            return;
        }
        for (Method getter : value.getClass().getMethods()) {
            if (getter.getParameterCount() != 0 || !getter.getName().startsWith("get") || getter.getDeclaringClass() == Object.class) {
                continue;
            }
            Object child;
            try {
                child = getter.invoke(value);
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new AssertionError(path + "." + getter.getName() + ": " + e.getCause(), e);
            }
            if (getter.getName().equals("getAdditionalProperties")) {
                if (child instanceof Map<?, ?> extra && !extra.isEmpty()) {
                    found.add(path + ": " + extra.keySet());
                }
            } else {
                unknownFields(child, path + "." + getter.getName().substring(3), found, depth + 1);
            }
        }
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T named(Class<T> type, String name) {
        return all(type).stream().filter(object -> object.getMetadata().getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name + " in " + directory));
    }

    /** The pod templates of the Deployments, StatefulSets, Jobs and CronJobs, by "Kind/name". */
    Map<String, PodTemplateSpec> podTemplates() {
        Map<String, PodTemplateSpec> templates = new java.util.LinkedHashMap<>();
        all(Deployment.class).forEach(d -> templates.put("Deployment/" + d.getMetadata().getName(), d.getSpec().getTemplate()));
        all(StatefulSet.class).forEach(s -> templates.put("StatefulSet/" + s.getMetadata().getName(), s.getSpec().getTemplate()));
        all(Job.class).forEach(j -> templates.put("Job/" + j.getMetadata().getName(), j.getSpec().getTemplate()));
        all(CronJob.class).forEach(c -> templates.put("CronJob/" + c.getMetadata().getName(), c.getSpec().getJobTemplate().getSpec().getTemplate()));
        return templates;
    }

    /** The long-running workloads (Deployments and StatefulSets): their pod templates, by "Kind/name". */
    Map<String, PodTemplateSpec> servers() {
        Map<String, PodTemplateSpec> templates = new java.util.LinkedHashMap<>(podTemplates());
        templates.keySet().removeIf(key -> key.startsWith("Job/") || key.startsWith("CronJob/"));
        return templates;
    }

    static Container onlyContainer(PodTemplateSpec template) {
        List<Container> containers = template.getSpec().getContainers();
        if (containers.size() != 1) {
            throw new AssertionError("expected one container, got " + containers.size());
        }
        return containers.get(0);
    }

    /** Whether a label selector (matchLabels and In/Exists expressions) selects these labels. */
    static boolean selects(LabelSelector selector, Map<String, String> labels) {
        if (selector == null) {
            return false;
        }
        Map<String, String> match = Optional.ofNullable(selector.getMatchLabels()).orElse(Map.of());
        boolean labelsMatch = match.entrySet().stream().allMatch(e -> e.getValue().equals(labels.get(e.getKey())));
        boolean expressionsMatch = Optional.ofNullable(selector.getMatchExpressions()).orElse(List.of()).stream()
                .allMatch(e -> switch (e.getOperator()) {
                    case "In" -> e.getValues().contains(labels.get(e.getKey()));
                    case "NotIn" -> !e.getValues().contains(labels.get(e.getKey()));
                    case "Exists" -> labels.containsKey(e.getKey());
                    case "DoesNotExist" -> !labels.containsKey(e.getKey());
                    default -> throw new AssertionError("operator " + e.getOperator());
                });
        return labelsMatch && expressionsMatch;
    }
}
