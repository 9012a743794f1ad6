defmodule Q do
  def job_key(q, id), do: "emq:{#{q}}:job:#{id}"
end
