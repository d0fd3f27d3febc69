package io.sluice.gateway.http;

/**
 * User event, fired from the head of a connection's pipeline by the handler that decides it: the
 * connection closes once the answers owed are written (a request was refused while its body
 * arrived, or an answer closes the connection), so no later request on it is admitted or received.
 */
enum TakingNoMore {
    EVENT
}
