/**
 * The scheduler's Prometheus metrics, with kube-scheduler's names, labels and buckets, and the
 * HTTP endpoint that serves them.
 */
package io.hotsched.core.metrics;
