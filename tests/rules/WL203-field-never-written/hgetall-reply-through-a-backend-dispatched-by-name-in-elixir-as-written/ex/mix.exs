defmodule Depot.MixProject do
  use Mix.Project
  def project, do: [app: :depot, version: "0.1.0"]
end
