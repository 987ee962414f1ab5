/** A meeting's notes pasted without punctuation or capitals (issue 24): one "sentence" of 180 words. */
export const UNPUNCTUATED_PASTE =
  "ok so lets get started we reviewed the numbers from last quarter and they look better than expe" +
  "cted the marketing team spent less than planned and sales grew in the north region but the sout" +
  "h region is still behind so we need a plan for that dana will send the budget by friday and mar" +
  "k will talk to the regional managers about the south region next week we also talked about hiri" +
  "ng two new engineers for the platform team and the recruiter will post the job ads on monday i " +
  "will check with legal about the new contract template before the end of the month then we discu" +
  "ssed the office move which is planned for the summer and everyone agreed that the new office is" +
  " better for the team can you also check the parking situation at the new office susan and send " +
  "me the floor plans by thursday we should also think about the holiday schedule and the training" +
  " budget for next year the team wants more conferences and less online courses and we will decid" +
  "e that at the next meeting okay thanks everyone see you next week";
