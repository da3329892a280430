// Every command the extension contributes, by id: the one table the manifest test, the extension's
// registration and the language server's lenses all read. Pure, so the server can import it.
export const COMMAND = {
  measureStatementAtCursor: 'bufferlens.measureStatementAtCursor',
  measureSelection: 'bufferlens.measureSelection',
  selectConnection: 'bufferlens.selectConnection',
  addConnection: 'bufferlens.addConnection',
  testConnection: 'bufferlens.testConnection',
  editConnection: 'bufferlens.editConnection',
  removeConnection: 'bufferlens.removeConnection',
  setPassword: 'bufferlens.setPassword',
  openReportHistory: 'bufferlens.openReportHistory',
  compareReports: 'bufferlens.compareReports',
  exportReport: 'bufferlens.exportReport',
  rerun: 'bufferlens.rerun',
  deleteReport: 'bufferlens.deleteReport',
  measureRange: 'bufferlens.measureRange',
  openReport: 'bufferlens.openReport',
  predictWorkload: 'bufferlens.predictWorkload',
  runWorkload: 'bufferlens.runWorkload',
  tryDemoWorkload: 'bufferlens.tryDemoWorkload',
  workloadFromStatistics: 'bufferlens.workloadFromStatistics',
  stopDemoDatabase: 'bufferlens.stopDemoDatabase',
} as const;

export type CommandId = (typeof COMMAND)[keyof typeof COMMAND];
