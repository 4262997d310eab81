/**
 * Whether this process still wants new work: a stopping server first drains (GET /health answers 503
 * `draining`, so a load balancer takes it out) while it goes on serving what reaches it.
 */
export class Readiness {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  drain(): void {
    this.#draining = true;
  }
}
