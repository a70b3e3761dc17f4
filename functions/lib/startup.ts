/**
 * What every entry point loads first (each Lambda handler under functions/http, functions/jobs and
 * functions/ws, so also the local stack, which loads them all): the domain's handlers on the hooks of the modules below it, which
 * register themselves when they load. Realtime tells presence of every socket that opens, moves or
 * closes; the ticket service tells automatic assignment of every ticket that moves. Without this
 * import a Lambda would close sockets, or move tickets, with nobody listening.
 */
import './presence/service';
import './tickets/assignment';
import './automation/hooks';
