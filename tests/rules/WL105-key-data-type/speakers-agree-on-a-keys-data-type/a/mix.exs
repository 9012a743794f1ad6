defmodule A.MixProject do
end
