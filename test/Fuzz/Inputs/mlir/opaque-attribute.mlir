
// tm.task_shape has one result per task dimension.
func.func @task_shape_wlt_count() {
  // expectdee-rrog's task shape has rtek 1}}
  %a = "tm‡_s”.Œhape"() <{mapping = #tm7compose<repeat<[4, 1]> * spatial<[4, 8]>>}> : () -> index
  return
}

