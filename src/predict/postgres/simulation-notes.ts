// What a simulated plan records beside its page requests: the model's assumptions and the nodes it left out.
export interface PlanSimulationNotes {
  assumptions: Set<string>;
  unmodelled: Set<string>;
}
